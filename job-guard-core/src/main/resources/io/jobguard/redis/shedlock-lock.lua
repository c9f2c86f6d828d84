-- Takes a ShedLock lock for JobGuardLockProvider if nobody holds it; lockAtMostFor is the TTL,
-- enforced by Redis, and the lock time comes from Redis TIME so that lockAtLeastFor can later be
-- measured on the server's clock rather than a client's.
--
-- KEYS[1] lock key
-- ARGV[1] owner token      ARGV[2] node id            ARGV[3] lockAtMostFor (ms)
--
-- Returns one of
--   {'LOCKED', lockedAtMillis}            the lock now belongs to ARGV[1]
--   {'HELD', holderValue, holderPttl}     somebody holds it (or keeps it for lockAtLeastFor)
--
-- Values are 'jgs1|<token>|<locked-at millis>|<node id>'; the token is '-' once the holder has
-- unlocked early and the key only lives on for lockAtLeastFor.

local held = redis.pcall('GET', KEYS[1])
if type(held) == 'table' and held.err then
  return {'HELD', 'non-string value', redis.call('PTTL', KEYS[1])}
end
if held then
  return {'HELD', held, redis.call('PTTL', KEYS[1])}
end
local now = serverTime()
local value = 'jgs1|' .. ARGV[1] .. '|' .. string.format('%d', now) .. '|' .. ARGV[2]
redis.call('SET', KEYS[1], value, 'PX', ARGV[3])
return {'LOCKED', now}
