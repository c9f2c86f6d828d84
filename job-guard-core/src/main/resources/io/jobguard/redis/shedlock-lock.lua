-- Takes a ShedLock lock for JobGuardLockProvider if nobody holds it; lockAtMostFor is the TTL,
-- enforced by Redis, and the lock time comes from Redis TIME so that lockAtLeastFor can later be
-- measured on the server's clock rather than a client's.
--
-- KEYS[1] lockKey: lock key
-- ARGV[1] ownerToken: owner token
-- ARGV[2] nodeId: node id
-- ARGV[3] lockAtMostForMs: lockAtMostFor (ms)
--
-- Returns one of
--   {'LOCKED', lockedAtMillis}            the lock now belongs to ARGV[1]
--   {'HELD', holderValue, holderPttl}     somebody holds it (or keeps it for lockAtLeastFor)
--
-- Values are 'jgs1|<token>|<locked-at millis>|<node id>'; the token is '-' once the holder has
-- unlocked early and the key only lives on for lockAtLeastFor.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local lockKey = KEYS[1]
local ownerToken = ARGV[1]
local nodeId = ARGV[2]
local lockAtMostForMs = ARGV[3]

local held = redis.pcall('GET', lockKey)
if type(held) == 'table' and held.err then
  return {'HELD', 'non-string value', redis.call('PTTL', lockKey)}
end
if held then
  return {'HELD', held, redis.call('PTTL', lockKey)}
end
local now = serverTime()
local value = 'jgs1|' .. ownerToken .. '|' .. string.format('%d', now) .. '|' .. nodeId
redis.call('SET', lockKey, value, 'PX', lockAtMostForMs)
return {'LOCKED', now}
