-- Extends one chunk of a batch lease: sets the TTL of each lock key whose value carries the lease's
-- owner token; keys lost to expiry (and perhaps re-taken by another lease) are left alone.
--
-- KEYS     when ARGV[3] is '1': KEYS[1] index of live batch leases, then the lock keys;
--          otherwise only lock keys.
-- ARGV[1]  owner prefix 'jg1|<token>|'   ARGV[2] lease (ms)   ARGV[3] '1' if KEYS[1] is the index
-- ARGV[4]  the lease's index entry
--
-- Returns the number of keys still held (and now extended).

local meta = ARGV[3] == '1'
local first = meta and 2 or 1
local prefix = ARGV[1]
local ms = ARGV[2]
local held = 0
-- MGET in slices: one read per slice instead of one per key.
local slice = 500
for from = first, #KEYS, slice do
  local to = math.min(from + slice - 1, #KEYS)
  local values = redis.call('MGET', unpack(KEYS, from, to))
  for i = 1, #values do
    local value = values[i]
    if value and string.find(value, prefix, 1, true) == 1 then
      redis.call('PEXPIRE', KEYS[from + i - 1], ms)
      held = held + 1
    end
  end
end
if meta and held > 0 then
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ms), ARGV[4])
end
return held
