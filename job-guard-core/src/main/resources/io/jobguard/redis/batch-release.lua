-- Releases one chunk of a batch lease: deletes each lock key whose value carries the lease's owner
-- token, leaves every other key alone (a key that expired and was re-taken belongs to its new holder).
--
-- KEYS     when ARGV[2] is '1': KEYS[1] index of live batch leases, then the lock keys;
--          otherwise only lock keys.
-- ARGV[1]  owner prefix 'jg1|<token>|'   ARGV[2] '1' if KEYS[1] is the index
-- ARGV[3]  notification channel           ARGV[4] notification message, or '' to publish nothing
-- ARGV[5]  the lease's index entry, or '' if unknown
--
-- Returns the number of keys released.

local meta = ARGV[2] == '1'
local first = meta and 2 or 1
local prefix = ARGV[1]
local released = 0
-- MGET and DEL in slices: two calls per slice instead of two per key; slices stay well below
-- Lua's unpack limit.
local slice = 500
for from = first, #KEYS, slice do
  local to = math.min(from + slice - 1, #KEYS)
  local values = redis.call('MGET', unpack(KEYS, from, to))
  local mine = {}
  for i = 1, #values do
    local held = values[i]
    if held and string.find(held, prefix, 1, true) == 1 then
      mine[#mine + 1] = KEYS[from + i - 1]
    end
  end
  if #mine > 0 then
    released = released + redis.call('DEL', unpack(mine))
  end
end
if meta and ARGV[5] ~= '' then
  redis.call('ZREM', KEYS[1], ARGV[5])
end
if ARGV[4] ~= '' then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return released
