-- Fenced write: sets a value only for a writer whose fencing token is not lower than the highest token
-- that has written to the resource, and records that token; check and write are one atomic step.
--
-- KEYS[1] fence key of the resource (highest token seen, a decimal string)
-- KEYS[2] the data key to write
-- ARGV[1] the writer's fencing token     ARGV[2] the value
-- ARGV[3] TTL of the value in ms (0: no TTL)
--
-- Returns {1, token}   written; the fence now holds ARGV[1]
--         {0, current} refused: the fence holds the higher token current, nothing was written

local token = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
if current > token then
  return {0, current}
end
if current < token then
  redis.call('SET', KEYS[1], ARGV[1])
end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[2])
end
return {1, token}
