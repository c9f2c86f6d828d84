-- An operator's retry of a fire time that failed for good: leaves one more attempt of it pending in the job's state
-- (field r, as a failed run with retries left does in run-release.lua), due at once, so that any node's run-acquire.lua
-- call in mode 'again' runs it under a new lease with a higher fencing token. Atomic: it schedules the attempt only
-- while nothing else can run or decide that fire time.
--
-- KEYS[1] stateKey: the job's state (hash, fields in run-acquire.lua's header)
-- KEYS[2] leaseKey: run lease (string)
-- KEYS[3] historyKey: recent fire times (list, entries in run-release.lua's header)
-- ARGV[1] fireTime: the fire time to run again (epoch millis; T below)
-- ARGV[2] nodeId: the node that asks, recorded with the note
-- ARGV[3] historySize: history size (entries kept; 0 keeps none, and then no failure can be found)
--
-- Accepted only when T is the latest fire time started (st == T), its run completed (c >= T: not running, not dead),
-- no attempt is pending (r empty or absent), no run lease is held, the job is not paused, and the newest entry of T in
-- the recent fire times is a run that ended FAILED or RETRIES_EXHAUSTED. That entry is the newest run entry of T
-- ('o|..', 'a<n>|..', 'f<n>|..' for a run that threw, or a bare lease value) or RETRY_BY_HAND note of T, whichever is newer; other notes of T (a node that found the job
-- paused, ...) tell nothing about how T's run ended and are passed over. Then r = 'T|<a>|<now>' (a: field a, the last
-- attempt; due at once by Redis TIME) and the note 'n|RETRY_BY_HAND|T|<now>|<node>' are written, in this call.
-- The whole list is read (LRANGE 0 -1): run-release.lua keeps it at most ARGV[3] + 32 entries.
--
-- Returns {status, attempt}:
--   {'SCHEDULED', a + 1}   attempt a + 1 of T is pending, due now
--   {'UNKNOWN', 0}         the job has no run record (no fire time started)
--   {'NOT_LATEST', 0}      a later fire time started after T (or T never started)
--   {'PAUSED', 0}          an operator paused the job: resume it first
--   {'BUSY', 0}            a run holds the job's lease
--   {'PENDING', 0}         an attempt is pending already (a retry, or an earlier retry by hand)
--   {'NOT_FAILED', 0}      T's run did not complete (running or dead), or its newest entry is not a failure
-- A state or history key of another type fails the call with an error naming it; nothing is written.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local stateKey = KEYS[1]
local leaseKey = KEYS[2]
local historyKey = KEYS[3]
local fireTime = ARGV[1]
local nodeId = ARGV[2]
local historySize = ARGV[3]

local problem = checkType(stateKey, 'hash') or checkType(historyKey, 'list')
if problem then
  return redis.error_reply(problem)
end
local state = redis.call('HMGET', stateKey, 'p', 'st', 'a', 'c', 'r')
local paused, started, attempt, completed, pending = state[1], state[2], state[3], state[4], state[5]
if not started then
  return {'UNKNOWN', 0}
end
if started ~= fireTime then
  return {'NOT_LATEST', 0}
end
if paused then
  return {'PAUSED', 0}
end
if redis.call('EXISTS', leaseKey) == 1 then
  return {'BUSY', 0}
end
if pending and pending ~= '' then
  return {'PENDING', 0}
end
if not completed or tonumber(completed) < tonumber(fireTime) then
  return {'NOT_FAILED', 0}
end

-- The newest entry that tells how T's run ended (see the header), newest first.
local size = tonumber(historySize) or 0
local verdict
if size > 0 then
  for _, entry in ipairs(redis.call('LRANGE', historyKey, 0, -1)) do
    local noted, notedTime = string.match(entry, '^n|([^|]*)|(%d+)|')
    if noted then
      if notedTime == fireTime and noted == 'RETRY_BY_HAND' then
        verdict = noted
        break
      end
    else
      local outcome, ran = string.match(entry, '^[oa]%d*|([^|]*)|[^|]*|jg1|[^|]*|(%d+)|')
      if not outcome then
        -- a run that threw: its failure's class and message line come before the lease value (neither holds '|')
        outcome, ran = string.match(entry, '^f%d+|([^|]*)|[^|]*|[^|]*|[^|]*|jg1|[^|]*|(%d+)|')
      end
      if not outcome then
        -- a run released without an outcome: its bare lease value
        ran = string.match(entry, '^jg1|[^|]*|(%d+)|')
        outcome = 'UNKNOWN'
      end
      if ran == fireTime then
        verdict = outcome
        break
      end
    end
  end
end
if verdict ~= 'FAILED' and verdict ~= 'RETRIES_EXHAUSTED' then
  return {'NOT_FAILED', 0}
end

local now = serverTime()
local last = tonumber(attempt) or 1
redis.call('HSET', stateKey, 'r', fireTime .. '|' .. string.format('%d', last) .. '|' .. string.format('%d', now))
noteDecided(historyKey, size, 'RETRY_BY_HAND', fireTime, now, nodeId)
return {'SCHEDULED', last + 1}
