-- Spread mode's namespace-slot call, one per acquisition or renewal: the bucket calls of a batch
-- live in other slots than the namespace's fencing counter and lease index, so this one call
-- stands in for both (taking the next fencing token, reading the acquired-at time and indexing
-- the lease), and the bucket calls that follow can all be sent at once. Every time is Redis TIME.
--
-- KEYS[1] fencing counter (a string holding an integer, or missing)
-- KEYS[2] lease index (zset: member = lease record value, score = expiry in epoch ms)
-- ARGV[1] 'begin' (new lease), 'renew' (re-score the lease's entry) or 'end' (after the bucket
--         calls of a release: unindex the lease and wake waiters)
-- ARGV[2] lease (ms); '0' for end
-- ARGV[3] begin: owner token; renew: the lease's index entry; end: the entry, or '' if never indexed
-- ARGV[4] begin: node id; end: notification channel
-- ARGV[5] end: notification message, or '' to publish nothing (the rollback of a refused attempt)
--
-- Returns begin: {fencingToken, acquiredAt}, the lease now indexed with its record value
--                'jg1|<token>||<acquired-at>|<fencing token>|<node id>' (batch-acquire.lua writes
--                the same record in each bucket);
--         renew: 1 (the entry scored with the new expiry; re-added if the index had lost it);
--         end: 1.
--         An error naming the key when the counter is not a count from 0 below 2^53 or the index
--         is not a zset: nothing is written then.
--
-- Fencing tokens never go backwards, even when Redis lost the counter (restart without persistence,
-- FLUSHALL, eviction, failover to a replica that missed writes): a new token is
-- max(counter + 1, Redis TIME in microseconds), which assumes the Redis servers' clocks differ by
-- less than the time the loss and the way back take. Exact in Lua's doubles until the year 2255.

-- BEGIN key type check (all before the first write; checkCounter and checkType come from prelude.lua)
local problem = checkCounter(KEYS[1]) or checkType(KEYS[2], 'zset')
if problem then
  return redis.error_reply(problem)
end
-- END key type check

local call = redis.call
local ms = tonumber(ARGV[2])
local now, nowMicros = serverTime()

if ARGV[1] == 'end' then
  if ARGV[3] ~= '' then
    call('ZREM', KEYS[2], ARGV[3])
  end
  -- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
  -- the release has happened all the same and waiters fall back to polling
  if ARGV[5] ~= '' then
    redis.pcall('PUBLISH', ARGV[4], ARGV[5])
  end
  return 1
end
if ARGV[1] == 'renew' then
  call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  call('ZADD', KEYS[2], now + ms, ARGV[3])
  return 1
end

local last = tonumber(call('GET', KEYS[1]) or '0')
local fence = math.max(last + 1, nowMicros)
call('SET', KEYS[1], string.format('%d', fence))
local value = 'jg1|' .. ARGV[3] .. '||' .. string.format('%d', now) .. '|' .. string.format('%d', fence) .. '|' .. ARGV[4]
-- Entries of crashed leases go once their score (expiry) has passed, so the index stays bounded.
call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
call('ZADD', KEYS[2], now + ms, value)
return {fence, now}
