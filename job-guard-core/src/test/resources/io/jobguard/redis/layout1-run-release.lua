-- A frozen copy of run-release.lua in key layout 1 (job-guard before the state hash), as released: LayoutUpgradeIT writes
-- keys with it to prove that a node of layout 2 refuses, migrates and never runs what layout 1 ran. Never edit.
-- Releases the run lease if, and only if, the caller's token holds it; keeps the fire-time marker
-- long enough for late (skewed) nodes to see it; starts the fixed-delay cool-down; wakes waiters.
--
-- KEYS[1] run lease        KEYS[2] fire-time marker   KEYS[3] cool-down
-- ARGV[1] owner token      ARGV[2] marker retention after the run (ms)
-- ARGV[3] cool-down (ms, 0 for none)                  ARGV[4] notification channel
-- ARGV[5] notification message
-- KEYS[4] the job's run record (hash, see run-acquire.lua)   ARGV[6] run record TTL (ms)
-- KEYS[5] recent fire times (list, see run-acquire.lua)
-- ARGV[7] the run's outcome ('' to leave the history entry alone)   ARGV[8] the run's duration (ms)
--
-- The history entry run-acquire.lua pushed (the lease value) becomes
-- 'o|<outcome>|<duration ms>|<lease value>' (the run's outcome for its history), found by value among the kept entries;
-- an entry already trimmed away is not written again.
--
-- Returns 1 if released, 0 if the lease had been lost (expired or held by another token).

local lease = redis.pcall('GET', KEYS[1])
if type(lease) ~= 'string' or string.match(lease, '^jg1|([^|]*)|') ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
-- the run completed: the record's c is the latest fire time completed (dead-run recovery reads it); a record key of
-- another type is left alone (the release itself must not fail)
local fireTime = tonumber(string.match(lease, '^jg1|[^|]*|(%d+)|'))
local completed = fireTime and redis.pcall('HGET', KEYS[4], 'c')
if fireTime and type(completed) ~= 'table' then
  if fireTime > (tonumber(completed or '0') or 0) then
    redis.call('HSET', KEYS[4], 'c', string.format('%d', fireTime))
  end
  redis.call('PEXPIRE', KEYS[4], ARGV[6])
end
-- pcall: LPOS on a history key of another type is an error reply (table), not a number; that key is
-- left alone without a separate TYPE call on every release
if ARGV[7] and ARGV[7] ~= '' then
  local at = redis.pcall('LPOS', KEYS[5], lease)
  if type(at) == 'number' then
    redis.call('LSET', KEYS[5], at, 'o|' .. ARGV[7] .. '|' .. ARGV[8] .. '|' .. lease)
  end
end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[3], lease, 'PX', ARGV[3])
end
-- The marker lives at least ARGV[2] from now: one PEXPIRE ... GT on Redis 7 and later (a marker without
-- TTL counts as infinite, a missing one stays missing); Redis 6.2 rejects GT and reads the TTL first.
if type(redis.pcall('PEXPIRE', KEYS[2], ARGV[2], 'GT')) == 'table' then
  local markerTtl = redis.call('PTTL', KEYS[2])
  if markerTtl >= 0 and markerTtl < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
  end
end
-- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
-- the release has happened all the same and waiters fall back to polling
redis.pcall('PUBLISH', ARGV[4], ARGV[5])
return 1
