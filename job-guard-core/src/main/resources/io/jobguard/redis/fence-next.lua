-- Takes the next fencing token of a counter (spread-mode batch leases, whose chunks live in other
-- slots than the counter). Tokens never go backwards, even when Redis lost the counter (restart
-- without persistence, FLUSHALL, eviction, failover to a replica that missed writes): the next token
-- is max(counter + 1, Redis TIME in microseconds), which assumes the Redis servers' clocks differ by
-- less than the time the loss and the way back take. Exact in Lua's doubles until the year 2255.
--
-- KEYS[1] fencing counter (a string holding an integer, or missing)
--
-- Returns the token (integer), or an error naming the key when the counter is not a count from 0
-- below 2^53 (somebody else's key, or a corrupted one): nothing is written then.

local _, micros = serverTime()
local current = redis.call('GET', KEYS[1])
local problem = current and counterProblem(KEYS[1], current)
if problem then
  return redis.error_reply(problem)
end
local last = tonumber(current or '0')
local fence = math.max(last + 1, micros)
redis.call('SET', KEYS[1], string.format('%d', fence))
return fence
