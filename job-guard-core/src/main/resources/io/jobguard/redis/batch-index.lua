-- Spread mode's namespace-slot call, one per acquisition or renewal: the bucket calls of a batch
-- live in other slots than the namespace's fencing counter and lease index, so this one call
-- stands in for both (taking the next fencing token, reading the acquired-at time and indexing
-- the lease), and the bucket calls that follow can all be sent at once. Every time is Redis TIME.
--
-- KEYS[1] counterKey: fencing counter (a string holding an integer, or missing)
-- KEYS[2] indexKey: lease index (zset: member = lease record value, score = expiry in epoch ms)
-- ARGV[1] action: 'begin' (new lease), 'renew' (re-score the lease's entry) or 'end' (after the bucket
--         calls of a release: unindex the lease and wake waiters)
-- ARGV[2] leaseMs: lease (ms); '0' for end
-- ARGV[3] subject: begin: owner token; renew: the lease's index entry; end: the entry, or '' if never indexed
-- ARGV[4] nodeOrChannel: begin: node id; end: notification channel
-- ARGV[5] message: end: notification message, or '' to publish nothing (the rollback of a refused attempt)
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

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local counterKey = KEYS[1]
local indexKey = KEYS[2]
local action = ARGV[1]
local leaseMs = ARGV[2]
local subject = ARGV[3]
local nodeOrChannel = ARGV[4]
local message = ARGV[5]

-- BEGIN key type check (all before the first write; checkCounter and checkType come from prelude.lua)
local problem = checkCounter(counterKey) or checkType(indexKey, 'zset')
if problem then
  return redis.error_reply(problem)
end
-- END key type check

local call = redis.call
local ms = tonumber(leaseMs)
local now, nowMicros = serverTime()

if action == 'end' then
  if subject ~= '' then
    call('ZREM', indexKey, subject)
  end
  -- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
  -- the release has happened all the same and waiters fall back to polling
  if message ~= '' then
    redis.pcall('PUBLISH', nodeOrChannel, message)
  end
  return 1
end
if action == 'renew' then
  call('ZREMRANGEBYSCORE', indexKey, '-inf', now)
  call('ZADD', indexKey, now + ms, subject)
  return 1
end

local last = tonumber(call('GET', counterKey) or '0')
local fence = math.max(last + 1, nowMicros)
call('SET', counterKey, string.format('%d', fence))
local value = 'jg1|' .. subject .. '||' .. string.format('%d', now) .. '|' .. string.format('%d', fence) .. '|' .. nodeOrChannel
-- Entries of crashed leases go once their score (expiry) has passed, so the index stays bounded.
call('ZREMRANGEBYSCORE', indexKey, '-inf', now)
call('ZADD', indexKey, now + ms, value)
return {fence, now}
