-- Extends a JobGuardLockProvider lock held by the caller's token: the lock lives lockAtMostFor
-- from now (Redis TIME), its lock time becomes now (lockAtLeastFor of the extended lock counts
-- from here) and it passes to a new token, so the handle that asked can no longer act on it.
--
-- KEYS[1] lockKey: lock key
-- ARGV[1] ownerToken: current owner token
-- ARGV[2] newToken: new owner token
-- ARGV[3] nodeId: node id
-- ARGV[4] lockAtMostForMs: new lockAtMostFor (ms)
--
-- Returns the new lock time in epoch millis, or -1 if the lock is not held by ARGV[1] (unlocked,
-- expired or someone else's).

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local lockKey = KEYS[1]
local ownerToken = ARGV[1]
local newToken = ARGV[2]
local nodeId = ARGV[3]
local lockAtMostForMs = ARGV[4]

local value = redis.pcall('GET', lockKey)
if type(value) ~= 'string' or string.match(value, '^jgs1|([^|]*)|') ~= ownerToken then
  return -1
end
local now = serverTime()
redis.call('SET', lockKey, 'jgs1|' .. newToken .. '|' .. string.format('%d', now) .. '|' .. nodeId, 'PX', lockAtMostForMs)
return now
