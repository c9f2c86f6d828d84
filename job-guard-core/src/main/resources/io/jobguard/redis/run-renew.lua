-- Extends the run lease of its owner, and the fire-time marker with it.
--
-- KEYS[1] run lease        KEYS[2] fire-time marker
-- ARGV[1] owner token      ARGV[2] lease (ms)         ARGV[3] marker TTL (ms)
--
-- Returns 1 if renewed, 0 if the lease is gone or held by another token (lease lost).

local lease = redis.pcall('GET', KEYS[1])
if type(lease) ~= 'string' or string.match(lease, '^jg1|([^|]*)|') ~= ARGV[1] then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local markerTtl = redis.call('PTTL', KEYS[2])
if markerTtl >= 0 and markerTtl < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return 1
