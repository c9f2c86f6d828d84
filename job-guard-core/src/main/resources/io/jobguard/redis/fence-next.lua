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

local time = redis.call('TIME')
local current = redis.call('GET', KEYS[1])
if current and (not string.match(current, '^%d+$') or #current > 16 or tonumber(current) >= 9007199254740991) then
  return redis.error_reply('job-guard: fencing counter ' .. KEYS[1] .. ' holds "' .. current
    .. '", not a count from 0 below 2^53, so the next fencing token would not be positive; nothing was'
    .. ' written (delete the key only if no batch lease of it is live)')
end
local last = tonumber(current or '0')
local fence = math.max(last + 1, tonumber(time[1]) * 1000000 + tonumber(time[2]))
redis.call('SET', KEYS[1], string.format('%d', fence))
return fence
