-- Unlocks a JobGuardLockProvider lock if, and only if, the caller's token holds it. ShedLock's
-- lockAtLeastFor is honoured on the server's clock: if less than lockAtLeastFor has passed since
-- the lock was taken (or last extended), the key stays until lockedAt + lockAtLeastFor, re-owned
-- by nobody (token '-') so that it can be neither unlocked nor extended again; else it is deleted.
--
-- KEYS[1] lockKey: lock key
-- ARGV[1] ownerToken: owner token
-- ARGV[2] lockAtLeastForMs: lockAtLeastFor (ms)
--
-- Returns -1 if the lock was not held by ARGV[1] (expired or someone else's), 0 if deleted, or
-- the milliseconds for which the key is kept to honour lockAtLeastFor.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local lockKey = KEYS[1]
local ownerToken = ARGV[1]
local lockAtLeastForMs = ARGV[2]

local value = redis.pcall('GET', lockKey)
if type(value) ~= 'string' then
  return -1
end
local token, lockedAt, node = string.match(value, '^jgs1|([^|]*)|(%d+)|(.*)$')
if token ~= ownerToken then
  return -1
end
local now = serverTime()
local keep = tonumber(lockedAt) + tonumber(lockAtLeastForMs) - now
if keep <= 0 then
  redis.call('DEL', lockKey)
  return 0
end
local ttl = redis.call('PTTL', lockKey)
if ttl >= 0 and ttl < keep then
  -- lockAtMostFor ends first: ShedLock never keeps a lock beyond it
  keep = ttl
end
redis.call('SET', lockKey, 'jgs1|-|' .. lockedAt .. '|' .. node, 'PX', keep)
return keep
