-- Extends the run lease of its owner, and the fire-time marker with it.
--
-- KEYS[1] leaseKey: run lease
-- KEYS[2] markerKey: fire-time marker
-- ARGV[1] ownerToken: owner token
-- ARGV[2] leaseMs: lease (ms)
-- ARGV[3] markerTtlMs: marker TTL (ms)
--
-- Returns 1 if renewed, 0 if the lease is gone or held by another token (lease lost).

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local leaseKey = KEYS[1]
local markerKey = KEYS[2]
local ownerToken = ARGV[1]
local leaseMs = ARGV[2]
local markerTtlMs = ARGV[3]

local lease = redis.pcall('GET', leaseKey)
if type(lease) ~= 'string' or string.match(lease, '^jg1|([^|]*)|') ~= ownerToken then
  return 0
end
redis.call('PEXPIRE', leaseKey, leaseMs)
local markerTtl = redis.call('PTTL', markerKey)
if markerTtl >= 0 and markerTtl < tonumber(markerTtlMs) then
  redis.call('PEXPIRE', markerKey, markerTtlMs)
end
return 1
