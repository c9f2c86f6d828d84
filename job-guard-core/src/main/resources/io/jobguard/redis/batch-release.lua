-- Releases one chunk of a batch lease: deletes each lock key whose value is this lease's value,
-- leaves every other key alone (a key that expired and was re-taken belongs to its new holder).
--
-- KEYS     when ARGV[2] is '1': KEYS[1] index of live batch leases, then the lock keys;
--          otherwise only lock keys.
-- ARGV[1]  the lease's lock value   ARGV[2] '1' if KEYS[1] is the index
-- ARGV[3]  notification channel     ARGV[4] notification message, or '' to publish nothing
--
-- Returns the number of keys released.

local meta = ARGV[2] == '1'
local first = meta and 2 or 1
local value = ARGV[1]
local released = 0
for i = first, #KEYS do
  if redis.pcall('GET', KEYS[i]) == value then
    redis.call('DEL', KEYS[i])
    released = released + 1
  end
end
if meta then
  redis.call('ZREM', KEYS[1], value)
end
if ARGV[4] ~= '' then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return released
