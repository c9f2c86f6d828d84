-- A frozen copy of run-acquire.lua in key layout 1 (job-guard before the state hash), as released: LayoutUpgradeIT writes
-- keys with it to prove that a node of layout 2 refuses, migrates and never runs what layout 1 ran. Never edit.
-- Takes the run lease of one job for one nominal fire time, atomically.
--
-- KEYS[1] run lease        KEYS[2] fire-time marker   KEYS[3] fencing counter
-- KEYS[4] cool-down        KEYS[5] recent fire times (list)                      KEYS[6] epoch
-- KEYS[8] pause flag (set by an operator: '<paused-at millis>|<node>|<by>'; absent when running)
-- ARGV[1] owner token      ARGV[2] node id            ARGV[3] nominal fire time (epoch millis)
-- ARGV[4] lease (ms)       ARGV[5] marker TTL (ms)    ARGV[6] history size
-- ARGV[7] the epoch this node saw last for the job ('<created millis>', '' if none)
-- ARGV[8] history-loss window (ms): after a loss, fire times before epoch start + window are refused
-- ARGV[9] the highest fencing token this node saw for the job ('0' if none)
-- KEYS[7] the job's run record (hash; see below)
-- ARGV[10] gap check: the schedule's fire time immediately before ARGV[3] (epoch millis), '' for none
--          (none when it is older than the catch-up window): a regular firing is granted only once the
--          record's s has reached it, so it never moves s past fire times nobody handled
-- ARGV[11] delivery check: '' none, 'most' (report a run that died), 'least:<max attempts>' (retry it)
-- ARGV[12] mode: '' a regular firing, 'catchup:<s>' a missed fire time, granted only while the
--          record's s is still <s> (so catch-ups run in order, each once), 'miss:<s>' declare the fire
--          times up to ARGV[3] missed (nothing runs), 'retry:<a>' run again the fire time whose
--          attempt <a> started and never completed
-- ARGV[13] run record TTL (ms)
-- ARGV[14] history-loss window (ms) used instead of ARGV[8] when the epoch is not the one in ARGV[7]:
--          ARGV[8] may be measured for that epoch only (LossWindows.java); '' = always ARGV[8]
-- ARGV[15] with ARGV[8], when the epoch is the one in ARGV[7]: the Redis time no earlier than the loss the window
--          counts from, if earlier than the epoch's creation (the fleet's leads hash was re-created by the same
--          loss, LossWindows.java); '' = the epoch's creation
-- ARGV[16] the latest fire time this node saw handled for the job (epoch millis: granted, taken before, refused
--          HISTORY_LOST or declared missed), '' if none: restores the run record's s after a loss took it
--
-- Returns one of (the last element is always the epoch's creation time, for the node to remember)
--   {'ACQUIRED', acquiredAtMillis, fencingToken, epoch}   lease and marker now belong to ARGV[1]
--   {'ALREADY_RAN', markerValue, markerPttl, epoch}       the fire time was taken before
--   {'HISTORY_LOST', epochValue, refusedUntilMillis, after, epoch}  the store lost the job's history
--                                                  after T may have run; T is never run. after: '' or the
--                                                  record's s before this call: the fire times after it and
--                                                  before T are refused with T, and this caller reports them
--   {'BUSY', leaseValue, leasePttl, epoch}                another run holds the lease
--   {'COOLDOWN', cooldownValue, cooldownPttl, epoch}      the fixed-delay gap is still running
--   {'CATCH_UP', s, lostUntil, epoch}  gap check: no fire time at or after ARGV[10] was handled (the
--                                      record's s is older); nothing was written but, after a loss,
--                                      the record restored from ARGV[16]. lostUntil: '' or, after a loss,
--                                      the fire time from which fire times are no longer refused
--                                      (HISTORY_LOST): the caller reports the earlier ones of the gap
--                                      as refused, never as missed, and catches up none of them
--   {'RETRY', st, a, epoch}            delivery 'least': the run of fire time st (attempt a) started,
--                                      never completed and its lease is gone; nothing was written
--   {'ABANDONED', st, a, epoch}        the same under 'most' (or attempts used up): reported once
--                                      (field x), never run again
--   {'MISSED', T, '', epoch}           mode 'miss': this caller declared the fire times up to T missed
--   {'SUPERSEDED', s, '', epoch}       modes 'catchup', 'miss', 'retry': another node got there first
--   {'PAUSED', pauseValue, -1, epoch}                     an operator paused the job cluster-wide;
--                                                  nothing is written ('' as epoch when none exists)
--
-- The run record (a hash whose TTL, ARGV[13], is renewed by every release and by an
-- acquire once every ARGV[13] / 32: field r = when an acquire last renewed it, so the record lives at
-- least 31/32 of ARGV[13] after its last write): s = the latest fire time
-- handled (started or declared missed), st = the latest fire time started, a = its attempt,
-- c = the latest fire time completed (written by run-release.lua), x = the last dead run reported,
-- m = the latest fire time declared missed or run as a catch-up: a regular firing at or before m that
-- finds no marker is refused as ALREADY_RAN (holder 'declared-missed'), so a node whose clock lags by
-- more than the skew tolerance does not run a fire time the cluster already settled.
--
-- After a loss (a 'lost' epoch) the record keeps the same invariant, s moving only over fire times that were
-- handled, refused ones included, so that no fire time of the loss is lost in silence. Only recovery calls (a
-- gap check in ARGV[10], or a catch-up) touch it: when the loss took the record (no s), s is restored from the
-- caller's memory (ARGV[16]); a refused fire time T (T < loss + window) moves s to T, and when s had not reached
-- the fire time before T (ARGV[10]; for a catch-up, s is the one the caller saw, else SUPERSEDED), the fire times
-- in between are refused with T and the reply names where they start (after), so the one caller that moved s
-- reports them. A fire time from loss + window on meets the gap check as usual: CATCH_UP from the restored s (a
-- restore is written whatever the reply; it is the only write of a CATCH_UP, BUSY or COOLDOWN reply).
--
-- The epoch (no TTL, '<created millis>|new' or '<created millis>|lost') tells a store that kept its
-- history from one that lost it (restart without persistence, FLUSHALL, failover to a replica that
-- missed writes, eviction). It is written the first time a node finds it missing: as 'lost' when that
-- node had seen an earlier epoch of the job (the history it saw is gone), as 'new' otherwise (a new
-- job or a new store; a node cannot tell those from a loss). A node that saw an earlier epoch and meets
-- a 'new' one turns it into 'lost'. A node that saw a fencing token above the counter knows that writes
-- were lost while the epoch survived (a failover to a replica that missed the last writes, an evicted
-- counter): the epoch is renewed as 'lost' (unless it is a 'lost' one created after that token's grant)
-- and the counter raised to that token. After a loss, a fire
-- time T < created + window may have run before the loss (its marker is gone), so every node refuses
-- it; later fire times run as usual.
--
-- Fencing tokens never go backwards, even when the counter is lost: the next token is
-- max(counter + 1, Redis TIME in microseconds), so a fresh or promoted Redis continues above every
-- token it handed out before, provided the servers' clocks differ by less than the time the loss and
-- the way back take (a restart or failover takes seconds). Microseconds stay exact in Lua's doubles
-- (below 2^53) until the year 2255.
--
-- The recent fire times hold between ARGV[6] and 2 x ARGV[6] values, newest first: the list is trimmed
-- back to ARGV[6] once it reaches twice that (one LTRIM every ARGV[6] firings instead of each time);
-- readers take the first ARGV[6].
--
-- Cost: a command called from Lua costs Redis more than most commands themselves, so a
-- granted firing runs nine: MGET (every string key of the job), EXISTS, HMGET, TIME (serverTime() in
-- prelude.lua), LPUSH, three SETs, HSET; LTRIM and the record's PEXPIRE only now and then.
--
-- Values are 'jg1|<token>|<T millis>|<acquired-at millis>|<fencing token>|<node id>'. A value of
-- another shape or type is somebody else's and is reported, never parsed here.

-- Everything is read before the first write (Redis does not roll a script back when a
-- command fails). MGET answers nil both for a missing key and for one of another type; EXISTS tells
-- them apart in one more call, and only a key of another type sends the script to the slow path.
local stringKeys = {KEYS[8], KEYS[6], KEYS[3], KEYS[2], KEYS[1], KEYS[4]}
local values = redis.call('MGET', unpack(stringKeys))
local found = 0
for i = 1, #stringKeys do
  if values[i] then
    found = found + 1
  end
end
if redis.call('EXISTS', unpack(stringKeys)) ~= found then
  -- a foreign fencing counter fails the call; any other key of another type reads as held by
  -- 'non-string value' (reported, never parsed)
  local problem = checkCounter(KEYS[3])
  if problem then
    return redis.error_reply(problem)
  end
  for i = 1, #stringKeys do
    if not values[i] and redis.call('EXISTS', stringKeys[i]) == 1 then
      values[i] = 'non-string value'
    end
  end
end
local paused, epoch, counter, marker, lease, cooldown = values[1], values[2], values[3], values[4], values[5], values[6]
local problem = counter and counterProblem(KEYS[3], counter)
if problem then
  return redis.error_reply(problem)
end
-- The run record and the recovery modes: see the header.
local rec = redis.pcall('HMGET', KEYS[7], 's', 'st', 'a', 'c', 'x', 'm', 'r')
if rec.err then
  return redis.error_reply(checkType(KEYS[7], 'hash') or rec.err)
end

local function owner(value)
  return string.match(value, '^jg1|([^|]*)|')
end

-- The pause flag: read in this same call, so pausing costs no extra round trip. A paused
-- firing writes nothing: no marker, so resuming before the fire time's window ends lets it run.
if paused then
  return {'PAUSED', paused, -1, epoch and string.match(epoch, '^(%d+)|') or ''}
end

local now, micros = serverTime()

-- The history list's type is checked by its LPUSH, the first write of a grant; a call that writes the
-- epoch or the counter earlier checks it first (one TYPE on those rare calls instead of on every one).
local historyChecked = tonumber(ARGV[6]) == 0
local function writeEarly(key, value)
  if not historyChecked then
    local foreign = checkType(KEYS[5], 'list')
    if foreign then
      return foreign
    end
    historyChecked = true
  end
  redis.call('SET', key, value)
  return nil
end

-- The epoch: see the header.
local created, kind
if epoch then
  created, kind = string.match(epoch, '^(%d+)|(%a+)$')
  if not created then
    return redis.error_reply('job-guard: ' .. KEYS[6] .. ' holds a value job-guard did not write')
  end
  if kind == 'new' and ARGV[7] ~= '' and ARGV[7] ~= created then
    kind = 'lost'
    epoch = created .. '|' .. kind
    problem = writeEarly(KEYS[6], epoch)
  end
else
  created = string.format('%d', now)
  kind = ARGV[7] == '' and 'new' or 'lost'
  epoch = created .. '|' .. kind
  problem = writeEarly(KEYS[6], epoch)
end
local last = tonumber(counter or '0')
local seen = tonumber(ARGV[9]) or 0
if seen > last then
  -- a 'lost' epoch created after that token's grant (tokens are at least the grant's TIME in µs) already
  -- dates the loss: the nodes that each saw a higher token must not move it on, one after another
  if kind ~= 'lost' or tonumber(created) * 1000 < seen then
    created = string.format('%d', now)
    kind = 'lost'
    epoch = created .. '|' .. kind
    problem = problem or writeEarly(KEYS[6], epoch)
  end
  last = seen
  problem = problem or writeEarly(KEYS[3], string.format('%d', seen))
end
if problem then
  return redis.error_reply(problem)
end

local recS, recSt, recA = tonumber(rec[1]), tonumber(rec[2]), tonumber(rec[3]) or 1
local recC = tonumber(rec[4]) or 0
local T = tonumber(ARGV[3])
local mode, modeArg = string.match(ARGV[12] or '', '^(%a+):(%d+)$')
local retrying = false
if mode == 'miss' then
  if rec[1] ~= modeArg then
    return {'SUPERSEDED', rec[1] or '', '', created}
  end
  redis.call('HSET', KEYS[7], 's', ARGV[3], 'm', ARGV[3])
  redis.call('PEXPIRE', KEYS[7], ARGV[13])
  return {'MISSED', T, '', created}
elseif mode == 'retry' then
  if recSt ~= T or rec[3] ~= modeArg or recC >= T or rec[5] == rec[2] then
    return {'SUPERSEDED', rec[1] or '', '', created}
  end
  if lease then
    -- a live lease: the run is not dead, or another node's retry holds it
    return {'SUPERSEDED', rec[1] or '', '', created}
  end
  retrying = true
end
if marker and not retrying then
  if owner(marker) == ARGV[1] and lease and owner(lease) == ARGV[1] then
    -- The same attempt asks again (a re-executed Quartz firing): it keeps what it holds.
    local at, fence = string.match(lease, '^jg1|[^|]*|[^|]*|(%d+)|(%d+)|')
    return {'ACQUIRED', tonumber(at), tonumber(fence), created}
  end
  return {'ALREADY_RAN', marker, redis.call('PTTL', KEYS[2]), created}
end
local lostUntil = ''
if kind == 'lost' then
  local known = created == ARGV[7]
  local window = (ARGV[14] ~= nil and ARGV[14] ~= '' and not known) and ARGV[14] or ARGV[8]
  local from = tonumber(created)
  if known and ARGV[15] ~= nil and ARGV[15] ~= '' then
    from = math.min(from, tonumber(ARGV[15]))
  end
  local refusedUntil = from + tonumber(window)
  -- The run record after a loss (see the header): a recovery call (gap check or catch-up) restores a record the
  -- loss took from the caller's memory (ARGV[16]), and a refusal moves s over the fire time it refuses.
  -- not on the first call that meets an epoch the node did not know: its window is the configured one and the node
  -- asks again with its judged one (RedisLeaseStore); a wider window must not move s over fire times that may run
  local judged = known or ARGV[14] == nil or ARGV[14] == ''
  local recovering = (ARGV[10] ~= '' or mode == 'catchup') and judged
  if recovering then
    lostUntil = string.format('%d', refusedUntil)
  end
  local restored = false
  if recovering and not recS and ARGV[16] ~= nil and ARGV[16] ~= '' then
    recS = tonumber(ARGV[16])
    rec[1] = ARGV[16]
    restored = true
  end
  if T < refusedUntil then
    if mode == 'catchup' and rec[1] ~= modeArg then
      return {'SUPERSEDED', rec[1] or '', '', created}
    end
    local after = ''
    if recovering and (not recS or T > recS) then
      if recS and (mode == 'catchup' or recS < tonumber(ARGV[10])) then
        after = rec[1]
      end
      redis.call('HSET', KEYS[7], 's', ARGV[3])
      redis.call('PEXPIRE', KEYS[7], ARGV[13])
    elseif restored then
      redis.call('HSET', KEYS[7], 's', ARGV[16])
      redis.call('PEXPIRE', KEYS[7], ARGV[13])
    end
    return {'HISTORY_LOST', epoch, refusedUntil, after, created}
  end
  if restored then
    redis.call('HSET', KEYS[7], 's', ARGV[16])
    redis.call('PEXPIRE', KEYS[7], ARGV[13])
  end
end
if lease and owner(lease) ~= ARGV[1] then
  return {'BUSY', lease, redis.call('PTTL', KEYS[1]), created}
end
if cooldown then
  return {'COOLDOWN', cooldown, redis.call('PTTL', KEYS[4]), created}
end

-- Recovery checks before a grant: see the header.
if mode == 'catchup' and rec[1] ~= modeArg then
  return {'SUPERSEDED', rec[1] or '', '', created}
end
if mode == nil and rec[6] and T <= tonumber(rec[6]) then
  -- declared missed (or passed over by a catch-up) up to m: a node this late must not run it now
  return {'ALREADY_RAN', 'jg1|missed|' .. ARGV[3] .. '|0|0|declared-missed', -2, created}
end
if mode == nil and ARGV[11] ~= '' and recSt and recSt < T and recC < recSt and rec[5] ~= rec[2] then
  local most = string.match(ARGV[11], '^least:(%d+)$')
  if most and recA < tonumber(most) then
    return {'RETRY', recSt, recA, created}
  end
  redis.call('HSET', KEYS[7], 'x', rec[2])
  return {'ABANDONED', recSt, recA, created}
end
if mode == nil and ARGV[10] ~= '' and recS and recS < tonumber(ARGV[10]) then
  return {'CATCH_UP', recS, lostUntil, created}
end

-- The fencing token: see the header.
local fence = math.max(last + 1, micros)
local value = 'jg1|' .. ARGV[1] .. '|' .. ARGV[3] .. '|' .. string.format('%d', now) .. '|'
    .. string.format('%d', fence) .. '|' .. ARGV[2]
-- The recent fire times (see the header) come first: a history key of another type fails this LPUSH
-- before anything else of the grant is written.
local history = tonumber(ARGV[6])
if history > 0 then
  local length = redis.pcall('LPUSH', KEYS[5], value)
  if type(length) == 'table' then
    return redis.error_reply(checkType(KEYS[5], 'list') or length.err)
  end
  if length >= 2 * history then
    redis.call('LTRIM', KEYS[5], 0, history - 1)
  end
end
redis.call('SET', KEYS[3], string.format('%d', fence))
redis.call('SET', KEYS[1], value, 'PX', ARGV[4])
redis.call('SET', KEYS[2], value, 'PX', ARGV[5])
-- One HSET of the record's changed fields; its TTL is renewed every ARGV[13] / 32 (field r, see the header).
local fields = {}
if not recS or T > recS then
  fields[#fields + 1] = 's'
  fields[#fields + 1] = ARGV[3]
end
if mode == 'catchup' then
  fields[#fields + 1] = 'm'
  fields[#fields + 1] = ARGV[3]
end
if not recSt or T >= recSt then
  fields[#fields + 1] = 'st'
  fields[#fields + 1] = ARGV[3]
  fields[#fields + 1] = 'a'
  fields[#fields + 1] = retrying and (recA + 1) or 1
end
local renewed = tonumber(rec[7])
local renew = not renewed or renewed > now or now - renewed >= tonumber(ARGV[13]) / 32
if renew then
  fields[#fields + 1] = 'r'
  fields[#fields + 1] = string.format('%d', now)
end
if #fields > 0 then
  redis.call('HSET', KEYS[7], unpack(fields))
end
if renew then
  redis.call('PEXPIRE', KEYS[7], ARGV[13])
end
return {'ACQUIRED', now, fence, created}
