-- Releases the run lease if, and only if, the caller's token holds it; records the run's completion and its
-- history entry; starts the fixed-delay cool-down; wakes waiters on other nodes when one waits.
--
-- KEYS[1] leaseKey: run lease (string)
-- KEYS[2] waitersKey: release waiters (string, set by run-acquire.lua for a WAIT caller)
-- KEYS[3] stateKey: the job's state (hash, see run-acquire.lua)
-- KEYS[4] historyKey: recent fire times (list)
-- KEYS[5] cooldownKey: cool-down (string)
-- ARGV[1] ownerToken: owner token
-- ARGV[2] cooldownMs: cool-down (ms, 0 for none)
-- ARGV[3] channel: notification channel
-- ARGV[4] message: notification message
-- ARGV[5] outcome: the run's outcome ('' when unknown)
-- ARGV[6] durationMs: the run's duration (ms)
-- ARGV[7] historySize: history size (the most entries kept; 0 keeps none)
-- ARGV[8] attempt: the fire time's attempt this run was ('1' for its first run)
-- ARGV[9] retryAfterMs: for a run that threw and retries, the back-off (ms) after which the fire time's next attempt
--          is due, counted from this call's Redis TIME; '' for none
-- ARGV[10] retentionMs: history retention (ms): entries whose fire time is older are dropped; '0' or '' for no age
--          limit
-- ARGV[11] failureClass: for a run that threw, the exception's class name; '' for none
-- ARGV[12] failureMessage: for a run that threw, the first line of its message, bounded and escaped by the caller
--          (no '|'); '' for none
--
-- The history entry is written here, once per firing: 'o|<outcome>|<duration ms>|<lease value>' for a first attempt,
-- 'a<attempt>|<outcome>|<duration ms>|<lease value>' for a later one, 'f<attempt>|<outcome>|<duration ms>|<failure
-- class>|<failure message>|<lease value>' for a run that threw, or the lease value alone when the outcome is unknown.
-- The list is newest first. Retention costs no command on most releases: the release trims the list (prelude.lua's
-- trimHistory: to ARGV[7] entries, then the tail's entries older than ARGV[10]) when the LPUSH's reply, its length, is
-- a multiple of HISTORY_SLACK (32) while it holds at most ARGV[7] entries, or ARGV[7] plus a multiple of 32 once it
-- holds more: one release in 32 either way. So the list holds at most ARGV[7] + 32 entries, and an entry past the
-- retention goes within 32 releases once it is the oldest.
-- A run whose node died before its release has no entry: the lease shows it while it lives, and the dead run is
-- reported by the recovery pass (history-note.lua).
--
-- The fire-time marker is not touched: run-acquire.lua gave it the lease's TTL plus its retention, and run-renew.lua
-- keeps it that far ahead of the lease, so it outlives a release (which happens before the lease expires) by at least
-- the retention.
--
-- A retry (ARGV[9]) is left pending in the state's field r, '<fire time>|<attempt>|<due millis, Redis TIME>': any
-- node's run-acquire.lua call in mode 'again' runs it once it is due, and the job's next fire time supersedes it
-- (run-acquire.lua's header). It is written in the same HSET as c, so a node that dies right after this call leaves it
-- pending for the others.
--
-- The state's c (the latest fire time completed) only moves forward: a node whose clock lags may run an earlier fire
-- time after a later one ran (its marker was free and the record had passed the fire time before it), and its release
-- must not set c back below st, which would make the later run look started and never completed (a false ABANDONED,
-- or under at-least-once a second run of it).
--
-- Cost: a release runs five commands: GET, DEL (lease and waiters), HGET, HSET, LPUSH; on one release in
-- HISTORY_SLACK (32) the trim: TIME and LINDEX, and LTRIM, LRANGE when entries are due to go; SET of the
-- cool-down for a fixed-delay job, PUBLISH only when a caller on another node waits for this job, TIME only when a
-- retry is left pending.
--
-- Returns 1 if released, 0 if the lease had been lost (expired or held by another token), 2 if released while
-- the state or the history key held another type (left alone, the release itself must not fail).

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local leaseKey = KEYS[1]
local waitersKey = KEYS[2]
local stateKey = KEYS[3]
local historyKey = KEYS[4]
local cooldownKey = KEYS[5]
local ownerToken = ARGV[1]
local cooldownMs = ARGV[2]
local channel = ARGV[3]
local message = ARGV[4]
local outcome = ARGV[5]
local durationMs = ARGV[6]
local historySize = ARGV[7]
local attempt = ARGV[8]
local retryAfterMs = ARGV[9]
local retentionMs = ARGV[10]
local failureClass = ARGV[11]
local failureMessage = ARGV[12]

local lease = redis.pcall('GET', leaseKey)
if type(lease) ~= 'string' or string.match(lease, '^jg1|([^|]*)|') ~= ownerToken then
  return 0
end
local freed = redis.call('DEL', leaseKey, waitersKey)
local reply = 1
local fireTime = string.match(lease, '^jg1|[^|]*|(%d+)|')
if fireTime then
  local completed = redis.pcall('HGET', stateKey, 'c')
  local fields = {}
  if type(completed) == 'table' then
    reply = 2
  else
    if not completed or tonumber(fireTime) > tonumber(completed) then
      fields[#fields + 1] = 'c'
      fields[#fields + 1] = fireTime
    end
    if retryAfterMs ~= '' then
      fields[#fields + 1] = 'r'
      fields[#fields + 1] = fireTime .. '|' .. attempt .. '|' .. string.format('%d', serverTime() + tonumber(retryAfterMs))
    end
    if #fields > 0 and type(redis.pcall('HSET', stateKey, unpack(fields))) == 'table' then
      reply = 2
    end
  end
end
local size = tonumber(historySize)
if size > 0 then
  local entry = lease
  if failureClass ~= '' then
    entry = 'f' .. attempt .. '|' .. outcome .. '|' .. durationMs .. '|' .. failureClass .. '|' .. failureMessage .. '|'
      .. lease
  elseif outcome ~= '' then
    entry = (attempt == '1' and 'o' or ('a' .. attempt)) .. '|' .. outcome .. '|' .. durationMs .. '|' .. lease
  end
  local length = redis.pcall('LPUSH', historyKey, entry)
  if type(length) ~= 'number' then
    reply = 2
  else
    -- counted from the size once the list is past it, so that a list held at its size is trimmed every 32 releases
    local over = length - size
    if over > HISTORY_SLACK or (over > 0 and over % HISTORY_SLACK == 0) or (over <= 0 and length % HISTORY_SLACK == 0) then
      trimHistory(historyKey, length, size, tonumber(retentionMs) or 0)
    end
  end
end
if tonumber(cooldownMs) > 0 then
  redis.call('SET', cooldownKey, lease, 'PX', cooldownMs)
end
if freed == 2 then
  -- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
  -- the release has happened all the same and waiters fall back to polling
  redis.pcall('PUBLISH', channel, message)
end
return reply
