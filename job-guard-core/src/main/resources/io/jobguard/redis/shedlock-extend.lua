-- Extends a JobGuardLockProvider lock held by the caller's token: the lock lives lockAtMostFor
-- from now (Redis TIME), its lock time becomes now (lockAtLeastFor of the extended lock counts
-- from here) and it passes to a new token, so the handle that asked can no longer act on it.
--
-- KEYS[1] lock key
-- ARGV[1] current owner token                         ARGV[2] new owner token
-- ARGV[3] node id          ARGV[4] new lockAtMostFor (ms)
--
-- Returns the new lock time in epoch millis, or -1 if the lock is not held by ARGV[1] (unlocked,
-- expired or someone else's).

local value = redis.pcall('GET', KEYS[1])
if type(value) ~= 'string' or string.match(value, '^jgs1|([^|]*)|') ~= ARGV[1] then
  return -1
end
local now = serverTime()
redis.call('SET', KEYS[1], 'jgs1|' .. ARGV[2] .. '|' .. string.format('%d', now) .. '|' .. ARGV[3], 'PX', ARGV[4])
return now
