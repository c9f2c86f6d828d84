-- Fenced write: sets a value only for a writer whose fencing token is not lower than the highest token
-- that has written to the resource, and records that token; check and write are one atomic step.
--
-- KEYS[1] fenceKey: fence key of the resource (highest token seen, a decimal string)
-- KEYS[2] dataKey: the data key to write
-- ARGV[1] tokenText: the writer's fencing token
-- ARGV[2] value: the value
-- ARGV[3] ttlMs: TTL of the value in ms (0: no TTL)
--
-- Returns {1, token}   written; the fence now holds ARGV[1]
--         {0, current} refused: the fence holds the higher token current, nothing was written

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local fenceKey = KEYS[1]
local dataKey = KEYS[2]
local tokenText = ARGV[1]
local value = ARGV[2]
local ttlMs = ARGV[3]

local token = tonumber(tokenText)
local current = tonumber(redis.call('GET', fenceKey) or '-1')
if current > token then
  return {0, current}
end
if current < token then
  redis.call('SET', fenceKey, tokenText)
end
if tonumber(ttlMs) > 0 then
  redis.call('SET', dataKey, value, 'PX', ttlMs)
else
  redis.call('SET', dataKey, value)
end
return {1, token}
