-- Unlocks a JobGuardLockProvider lock if, and only if, the caller's token holds it. ShedLock's
-- lockAtLeastFor is honoured on the server's clock: if less than lockAtLeastFor has passed since
-- the lock was taken (or last extended), the key stays until lockedAt + lockAtLeastFor, re-owned
-- by nobody (token '-') so that it can be neither unlocked nor extended again; else it is deleted.
--
-- KEYS[1] lock key
-- ARGV[1] owner token      ARGV[2] lockAtLeastFor (ms)
--
-- Returns -1 if the lock was not held by ARGV[1] (expired or someone else's), 0 if deleted, or
-- the milliseconds for which the key is kept to honour lockAtLeastFor.

local value = redis.pcall('GET', KEYS[1])
if type(value) ~= 'string' then
  return -1
end
local token, lockedAt, node = string.match(value, '^jgs1|([^|]*)|(%d+)|(.*)$')
if token ~= ARGV[1] then
  return -1
end
local now = serverTime()
local keep = tonumber(lockedAt) + tonumber(ARGV[2]) - now
if keep <= 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl >= 0 and ttl < keep then
  -- lockAtMostFor ends first: ShedLock never keeps a lock beyond it
  keep = ttl
end
redis.call('SET', KEYS[1], 'jgs1|-|' .. lockedAt .. '|' .. node, 'PX', keep)
return keep
