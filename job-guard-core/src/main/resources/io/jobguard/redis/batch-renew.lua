-- Extends a batch lease in one slot: one record per lease and slot holds the TTL of all its keys
-- there, so the cost does not grow with the key count. A lease whose record expired stays lost
-- (its keys may have been re-taken); it is never revived.
--
-- KEYS[1] hash of locked keys             KEYS[2] this lease's record
-- KEYS[3] lease index (if ARGV[2] = '1')
-- ARGV[1] lease (ms)   ARGV[2] '1' if KEYS[3] is given   ARGV[3] the lease's index entry
--
-- Returns 1 when the lease was extended, 0 when its record or the hash is gone (lease lost).

-- BEGIN key type check (all before the first write; checkType is in prelude.lua)
local problem = ARGV[2] == '1' and checkType(KEYS[3], 'zset')
if problem then
  return redis.error_reply(problem)
end
-- END key type check

local ms = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('PEXPIRE', KEYS[2], ms) == 0 then
  return 0
end
if redis.call('PTTL', KEYS[1]) < ms then
  redis.call('PEXPIRE', KEYS[1], ms)
end
if ARGV[2] == '1' then
  local now = serverTime()
  redis.call('ZADD', KEYS[3], 'XX', now + ms, ARGV[3])
end
return 1
