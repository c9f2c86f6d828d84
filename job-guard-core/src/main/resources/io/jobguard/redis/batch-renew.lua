-- Extends a batch lease in one slot: one record per lease and slot holds the TTL of all its keys
-- there, so the cost does not grow with the key count. A lease whose record expired stays lost
-- (its keys may have been re-taken); it is never revived.
--
-- KEYS[1] held: hash of locked keys
-- KEYS[2] record: this lease's record
-- KEYS[3] indexKey: lease index (if ARGV[2] = '1')
-- ARGV[1] leaseMs: lease (ms)
-- ARGV[2] indexed: '1' if KEYS[3] is given
-- ARGV[3] indexEntry: the lease's index entry
--
-- Returns 1 when the lease was extended, 0 when its record or the hash is gone (lease lost).

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local held = KEYS[1]
local record = KEYS[2]
local indexKey = KEYS[3]
local leaseMs = ARGV[1]
local indexed = ARGV[2]
local indexEntry = ARGV[3]

-- BEGIN key type check (all before the first write; checkType is in prelude.lua)
local problem = indexed == '1' and checkType(indexKey, 'zset')
if problem then
  return redis.error_reply(problem)
end
-- END key type check

local ms = tonumber(leaseMs)
if redis.call('EXISTS', held) == 0 or redis.call('PEXPIRE', record, ms) == 0 then
  return 0
end
if redis.call('PTTL', held) < ms then
  redis.call('PEXPIRE', held, ms)
end
if indexed == '1' then
  local now = serverTime()
  redis.call('ZADD', indexKey, 'XX', now + ms, indexEntry)
end
return 1
