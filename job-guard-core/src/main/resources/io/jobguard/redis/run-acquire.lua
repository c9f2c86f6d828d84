-- Takes the run lease of one job for one nominal fire time, atomically.
--
-- KEYS[1] leaseKey: run lease (string, TTL)
-- KEYS[2] markerKey: the fire time's marker (string, TTL)
-- KEYS[3] stateKey: the job's state (hash, key layout 2, no TTL; fields below)
-- KEYS[4] cooldownKey: cool-down (string, TTL)
-- KEYS[5] waitersKey: release waiters (string, TTL: set while a WAIT caller waits)
-- KEYS[6] layout1EpochKey: the job's epoch in key layout 1
-- KEYS[7] layout1CounterKey: the job's fencing counter in key layout 1
-- KEYS[8] layout1RecordKey: the job's run record in key layout 1 (KEYS[6..8] are read only when KEYS[3] has no
--          epoch: a job kept in layout 1 is refused until migrated, see below)
-- KEYS[9] historyKey: the job's recent fire times (list, run-release.lua): written only by a call that decides fire
--          times without a run (ARGV[17], ARGV[18], ABANDONED, a HISTORY_LOST refusal that moves s)
-- ARGV[1] ownerToken: owner token
-- ARGV[2] nodeId: node id
-- ARGV[3] fireTime: nominal fire time (epoch millis; T below)
-- ARGV[4] leaseMs: lease (ms)
-- ARGV[5] markerTtlMs: marker TTL (ms): lease + the marker's retention after the run
-- ARGV[6] lastEpoch: the epoch this node saw last for the job ('<created millis>', '' if none)
-- ARGV[7] lossWindowMs: history-loss window (ms): after a loss, fire times before epoch start + window are refused
-- ARGV[8] highestToken: the highest fencing token this node saw for the job ('0' if none)
-- ARGV[9] previousFireTime: gap check: the schedule's fire time immediately before ARGV[3] (epoch millis), '' for
--          none (none when it is older than the catch-up window): a regular firing is granted only once the
--          record's s has reached it, so it never moves s past fire times nobody handled
-- ARGV[10] delivery: delivery check: '' none, 'most' (report a run that died), 'least:<max attempts>' (retry it)
-- ARGV[11] attempt: mode: '' a regular firing, 'catchup:<s>' a missed fire time, granted only while the
--          record's s is still <s> (so catch-ups run in order, each once), 'miss:<s>' declare the fire
--          times up to ARGV[3] missed (nothing runs), 'retry:<a>' run again the fire time whose
--          attempt <a> started and never completed, 'again:<a>' run the attempt after attempt <a> of the fire time,
--          which threw and left its next attempt pending (field r), once it is due
-- ARGV[12] configuredWindowMs: history-loss window (ms) used instead of ARGV[7] when the epoch is not the one in
--          ARGV[6]: ARGV[7] may be measured for that epoch only (LossWindows.java); '' = always ARGV[7]
-- ARGV[13] lossAnchor: with ARGV[7], when the epoch is the one in ARGV[6]: the Redis time no earlier than the loss the
--          window counts from, if earlier than the epoch's creation (the fleet's leads hash was re-created by the same
--          loss, LossWindows.java); '' = the epoch's creation
-- ARGV[14] handledFireTime: the latest fire time this node saw handled for the job (epoch millis: granted, taken
--          before, refused HISTORY_LOST or declared missed), '' if none: restores the run record's s after a loss took it
-- ARGV[15] waiting: '1' when the caller waits for the lease's release (WAIT, or a RETURN firing's busy grace): a BUSY
--          reply then sets KEYS[5], so that the release publishes; '' otherwise (releases nobody waits for publish
--          nothing)
-- ARGV[16] historySize: history size (entries of KEYS[9] kept): a reply ABANDONED, MISSED, a granted catch-up or a
--          HISTORY_LOST refusal that moves the record's s records the fire times it decides there
-- ARGV[17] passedOverLost: modes 'catchup' and 'miss': the fire times (epoch millis, comma-separated, ascending) this
--          call passes over as refused after a loss (HISTORY_LOST), '' for none
-- ARGV[18] passedOverMissed: the same for the fire times it passes over as missed (MISSED). ARGV[17] and ARGV[18] are
--          recorded in KEYS[9] with the grant or the declaration (a catch-up refused after a loss records both as
--          HISTORY_LOST), in this same call, so that a node that dies right after deciding leaves them recorded
--
-- Returns one of (the last element is always the epoch's creation time, for the node to remember)
--   {'ACQUIRED', acquiredAtMillis, fencingToken, epoch}   lease and marker now belong to ARGV[1]
--   {'ACQUIRED', acquiredAtMillis, fencingToken, supersededFireTime, epoch}  the same, and the grant of this later
--                                                  fire time superseded the attempt pending for that one (field r:
--                                                  recorded RETRY_SUPERSEDED in KEYS[9] by this call)
--   {'ALREADY_RAN', markerValue, markerPttl, epoch}       the fire time was taken before
--   {'HISTORY_LOST', epochValue, refusedUntilMillis, after, epoch}  the store lost the job's history
--                                                  after T may have run; T is never run. after: '' or, for a
--                                                  catch-up, the record's s before this call: T and the fire
--                                                  times it passes over (ARGV[17], ARGV[18]) are refused and
--                                                  recorded in KEYS[9] by this call; this caller reports them
--   {'BUSY', leaseValue, leasePttl, epoch}                another run holds the lease
--   {'COOLDOWN', cooldownValue, cooldownPttl, epoch}      the fixed-delay gap is still running
--   {'CATCH_UP', s, lostUntil, epoch}  gap check: no fire time at or after ARGV[9] was handled (the
--                                      record's s is older), also when T itself is refused after a loss;
--                                      nothing was written but, after a loss, the record restored from
--                                      ARGV[14]. lostUntil: '' or, after a loss, the fire time from which
--                                      fire times are no longer refused (HISTORY_LOST): the caller declares
--                                      the earlier ones of the gap refused (a 'miss' call records them),
--                                      never missed, and catches up none of them
--   {'RETRY', st, a, epoch}            delivery 'least': the run of fire time st (attempt a) started,
--                                      never completed and its lease is gone; nothing was written
--   {'ABANDONED', st, a, epoch}        the same under 'most' (or attempts used up): reported once
--                                      (field x, and recorded in KEYS[9]), never run again
--   {'MISSED', T, '', epoch}           mode 'miss': this caller declared the fire times up to T missed
--   {'SUPERSEDED', s, '', epoch}       modes 'catchup', 'miss', 'retry', 'again': another node got there first
--                                      (for 'again': the record holds no such pending attempt any more)
--   {'NOT_DUE', dueMillis, waitMs, epoch}  mode 'again': the pending attempt is due in waitMs (Redis time);
--                                      nothing was written
--   {'PAUSED', pauseValue, -1, epoch}                     an operator paused the job cluster-wide;
--                                                  nothing is written ('' as epoch when none exists)
--
-- The job's state (KEYS[3]) is one hash, read with one HMGET and written with at most one HSET per grant:
--   e  the epoch ('<created millis>|new' or '<created millis>|lost', see below)
--   f  the fencing counter (the last token granted)
--   p  the pause flag, set by an operator: '<paused-at millis>|<node>|<by>'; absent when running
--   s  the latest fire time handled (started or declared missed)   st  the latest fire time started
--   a  the attempt of st    c  the latest fire time completed (run-release.lua)    x  the last dead run reported
--   r  a failed run's pending next attempt, '<fire time>|<failed attempt>|<due millis>' (run-release.lua), '' or
--      absent for none. Mode 'again' runs it once due (marker rewritten, a = attempt + 1, c set to T - 1 so that the
--      attempt counts as started and not completed: a node that dies in it meets the delivery check like any dead
--      run); any grant of a later fire time supersedes it (r cleared, RETRY_SUPERSEDED recorded), as runs of one job
--      never overlap and the newer fire time wins. A paused job answers PAUSED first, so a pending attempt waits.
--   m  the latest fire time declared missed or run as a catch-up: a regular firing at or before m that finds no
--      marker is refused as ALREADY_RAN (holder 'declared-missed'), so a node whose clock lags by more than the
--      skew tolerance does not run a fire time the cluster already settled.
-- The hash has no TTL (as the epoch must not expire while the job exists): delete it when a job is removed.
--
-- After a loss (a 'lost' epoch) the record keeps the same invariant, s moving only over fire times that were
-- handled, refused ones included, so that no fire time of the loss is lost in silence. Only recovery calls (a
-- gap check in ARGV[9], or a catch-up) touch it: when the loss took the record (no s), s is restored from the
-- caller's memory (ARGV[14]); a refused fire time T (T < loss + window) moves s to T and is recorded in KEYS[9] by
-- that call (a reply lost to a timeout leaves it recorded; every node that refuses T records it too, once). A regular
-- firing whose gap
-- check finds s short of the fire time before T (ARGV[9]) gets CATCH_UP instead, so the fire times in between are
-- declared (and recorded) by a 'miss' call before T is refused; a catch-up (s is the one the caller saw, else
-- SUPERSEDED) refused this way records T and what it passes over in this same call, and the reply names where they
-- start (after), so the one caller that moved s reports them. A fire time from loss + window on meets the gap
-- check as usual: CATCH_UP from the restored s (a restore is written with every reply but a catch-up's SUPERSEDED;
-- it is the only write of a CATCH_UP, BUSY or COOLDOWN reply).
-- A node that remembers no handled fire time (a restore needs one) grants without setting s, so that the first
-- node that remembers one restores s from it and reports what the outage passed over; a catch-up that then finds
-- its fire time's marker (granted meanwhile) moves s over it.
--
-- The epoch tells a store that kept its history from one that lost it (restart without persistence, FLUSHALL,
-- failover to a replica that missed writes, eviction). It is written the first time a node finds it missing: as
-- 'lost' when that node had seen an earlier epoch of the job (the history it saw is gone), as 'new' otherwise (a
-- new job or a new store; a node cannot tell those from a loss). A node that saw an earlier epoch and meets a
-- 'new' one turns it into 'lost'. A node that saw a fencing token above the counter knows that writes were lost
-- while the epoch survived (a failover to a replica that missed the last writes): the epoch is renewed as 'lost'
-- (unless it is a 'lost' one created after that token's grant) and the counter raised to that token. After a
-- loss, a fire time T < created + window may have run before the loss (its marker is gone), so every node
-- refuses it; later fire times run as usual.
--
-- Key layout 1 (job-guard before layout 2) kept the epoch, counter, record and pause flag in keys of their own
-- (KEYS[6..8] and '<job>:paused'); lease, marker, cool-down and history keep their names and values. A job whose
-- state hash has no epoch while layout-1 keys of it exist is refused with an error naming them: the nodes that
-- wrote them may still run, and a job run under two layouts at once would not share its record. The migration
-- (layout-migrate.lua, RedisLeaseStore.migrateLayout1) moves them into the hash once the old nodes have stopped;
-- a fire time the old layout ran keeps its marker, so it is refused here.
--
-- Fencing tokens never go backwards, even when the counter is lost: the next token is
-- max(counter + 1, Redis TIME in microseconds), so a fresh or promoted Redis continues above every
-- token it handed out before, provided the servers' clocks differ by less than the time the loss and
-- the way back take (a restart or failover takes seconds). Microseconds stay exact in Lua's doubles
-- (below 2^53) until the year 2255.
--
-- Cost: a command called from Lua costs Redis more than most commands themselves, so a granted regular firing runs
-- six: MGET (lease, marker, cool-down), HMGET (the state), TIME (serverTime() in prelude.lua), SET of the marker
-- and of the lease, HSET of the state. The history entry is written once, by the release, with the run's outcome.
-- A refusal of a fire time already taken (most calls in a fleet: every node asks for every fire time) runs three:
-- MGET, HMGET, PTTL of the marker.
--
-- Values are 'jg1|<token>|<T millis>|<acquired-at millis>|<fencing token>|<node id>'. A value of
-- another shape or type is somebody else's and is reported, never parsed here.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local leaseKey = KEYS[1]
local markerKey = KEYS[2]
local stateKey = KEYS[3]
local cooldownKey = KEYS[4]
local waitersKey = KEYS[5]
local layout1EpochKey = KEYS[6]
local layout1CounterKey = KEYS[7]
local layout1RecordKey = KEYS[8]
local historyKey = KEYS[9]
local ownerToken = ARGV[1]
local nodeId = ARGV[2]
local fireTime = ARGV[3]
local leaseMs = ARGV[4]
local markerTtlMs = ARGV[5]
local lastEpoch = ARGV[6]
local lossWindowMs = ARGV[7]
local highestToken = ARGV[8]
local previousFireTime = ARGV[9]
local delivery = ARGV[10]
local attempt = ARGV[11]
local configuredWindowMs = ARGV[12]
local lossAnchor = ARGV[13]
local handledFireTime = ARGV[14]
local waiting = ARGV[15]
local historySize = ARGV[16]
local passedOverLost = ARGV[17]
local passedOverMissed = ARGV[18]

-- Everything is read before the first write (Redis does not roll a script back when a command fails). MGET answers
-- nil both for a missing key and for one of another type: the grant writes the marker and the lease with SET NX,
-- which refuses a key of another type, so such a key reads as held by 'non-string value' (reported, never parsed).
local values = redis.call('MGET', leaseKey, markerKey, cooldownKey)
local lease, marker, cooldown = values[1], values[2], values[3]
local state = redis.pcall('HMGET', stateKey, 'e', 'f', 'p', 's', 'st', 'a', 'c', 'x', 'm', 'r')
if state.err then
  return redis.error_reply(checkType(stateKey, 'hash') or state.err)
end
-- The state's fields by their names in the hash (see the header); record<Field> is the run record's field, as stored
-- (locals, not a table: a firing allocates nothing for them).
local epoch, counter, paused = state[1], state[2], state[3]
local recordS, recordSt, recordA, recordC, recordX, recordM = state[4], state[5], state[6], state[7], state[8], state[9]
local recordR = state[10]
local problem = counter and counterProblem(stateKey .. ' field f', counter)
if problem then
  return redis.error_reply(problem)
end

local function owner(value)
  return string.match(value, '^jg1|([^|]*)|')
end

-- The pause flag: read in this same call, so pausing costs no extra round trip. A paused
-- firing writes nothing: no marker, so resuming before the fire time's window ends lets it run.
if paused then
  return {'PAUSED', paused, -1, epoch and string.match(epoch, '^(%d+)|') or ''}
end

if not epoch and redis.call('EXISTS', layout1EpochKey, layout1CounterKey, layout1RecordKey) > 0 then
  return redis.error_reply('job-guard: ' .. layout1EpochKey .. ', ' .. layout1CounterKey .. ' or ' .. layout1RecordKey
    .. ' exists: the job is kept in'
    .. ' key layout 1 (job-guard 0.x), which nodes of that version may still use; this node keeps jobs in layout 2 ('
    .. stateKey .. ') and runs nothing of the job until it is migrated: stop every node of the old version, then call'
    .. ' RedisLeaseStore.migrateLayout1() (docs/names-and-keys.md, "Upgrading from key layout 1"); nothing was written')
end

-- Redis TIME, read once and only when needed (a new or lost epoch, a grant): a refusal runs without it.
local now, micros
local function clock()
  if not now then
    now, micros = serverTime()
  end
  return now
end

-- The epoch: see the header. A write here is rare (a new job, a loss) and goes out at once.
local created, kind
if epoch then
  created, kind = string.match(epoch, '^(%d+)|(%a+)$')
  if not created then
    return redis.error_reply('job-guard: ' .. stateKey .. ' field e holds a value job-guard did not write')
  end
  if kind == 'new' and lastEpoch ~= '' and lastEpoch ~= created then
    kind = 'lost'
    epoch = created .. '|' .. kind
    redis.call('HSET', stateKey, 'e', epoch)
  end
else
  created = string.format('%d', clock())
  kind = lastEpoch == '' and 'new' or 'lost'
  epoch = created .. '|' .. kind
  redis.call('HSET', stateKey, 'e', epoch)
end
local last = tonumber(counter or '0')
local seen = tonumber(highestToken) or 0
if seen > last then
  -- a 'lost' epoch created after that token's grant (tokens are at least the grant's TIME in µs) already
  -- dates the loss: the nodes that each saw a higher token must not move it on, one after another
  if kind ~= 'lost' or tonumber(created) * 1000 < seen then
    created = string.format('%d', clock())
    kind = 'lost'
    epoch = created .. '|' .. kind
  end
  last = seen
  redis.call('HSET', stateKey, 'e', epoch, 'f', string.format('%d', seen))
end

-- Decided fire times go to the recent fire times (KEYS[9]) in the call that decides them (noteDecided, prelude.lua), so
-- a node that dies right after deciding leaves them recorded.
local function recordDecided(at, outcome, fireTimes)
  noteDecided(historyKey, tonumber(historySize) or 0, outcome, fireTimes, at, nodeId)
end

-- What a catch-up or a declaration passes over (ARGV[17], ARGV[18]).
local function declare(at)
  recordDecided(at, 'HISTORY_LOST', passedOverLost)
  recordDecided(at, 'MISSED', passedOverMissed)
end

local recS, recSt, recA = tonumber(recordS), tonumber(recordSt), tonumber(recordA) or 1
local recC = tonumber(recordC) or 0
local T = tonumber(fireTime)
local mode, modeArg = string.match(attempt or '', '^(%a+):(%d+)$')
local retrying = false
if mode == 'miss' then
  if recordS ~= modeArg then
    return {'SUPERSEDED', recordS or '', '', created}
  end
  redis.call('HSET', stateKey, 's', fireTime, 'm', fireTime)
  declare(clock())
  return {'MISSED', T, '', created}
elseif mode == 'retry' then
  if recSt ~= T or recordA ~= modeArg or recC >= T or recordX == recordSt then
    return {'SUPERSEDED', recordS or '', '', created}
  end
  if lease then
    -- a live lease: the run is not dead, or another node's retry holds it
    return {'SUPERSEDED', recordS or '', '', created}
  end
  retrying = true
end
-- A failed run's pending attempt (field r): its fire time, the attempt that failed, when the next is due.
local pendingT, pendingA, pendingDue = string.match(recordR or '', '^(%d+)|(%d+)|(%d+)$')
if mode == 'again' then
  if pendingT ~= fireTime or pendingA ~= modeArg then
    return {'SUPERSEDED', recordS or '', '', created}
  end
  retrying = true
end
if marker and not retrying then
  if owner(marker) == ownerToken and lease and owner(lease) == ownerToken then
    -- The same attempt asks again (a re-executed Quartz firing): it keeps what it holds.
    local at, fence = string.match(lease, '^jg1|[^|]*|[^|]*|(%d+)|(%d+)|')
    return {'ACQUIRED', tonumber(at), tonumber(fence), created}
  end
  if mode == 'catchup' and recordS == modeArg and (not recS or T > recS) then
    -- the fire time was handled (its marker says so) though the record's s had not reached it (after a loss, a
    -- grant by a node with nothing to restore leaves s behind): s moves over it, so the gap check goes on
    redis.call('HSET', stateKey, 's', fireTime)
  end
  return {'ALREADY_RAN', marker, redis.call('PTTL', markerKey), created}
end

-- After a loss (a 'lost' epoch, see the header). Set by settleLoss() for the rest of the call:
-- lostUntil: '' or, for a recovery call, the fire time from which fire times are no longer refused (HISTORY_LOST);
-- unanchored: a recovery call of a node that remembers no handled fire time, on a record the loss took: its grant
-- must not set s, or the fire times between what other nodes remember and this one would be passed over unreported.
local lostUntil = ''
local unanchored = false

-- The loss block, run only by a call that meets a lost epoch: its functions are made here, so a firing outside a
-- loss does not create them.
if kind == 'lost' then
  -- Until when the lost epoch refuses fire times (Redis time, epoch millis), and whether that window is the one this
  -- node judged for the epoch. It is not on the first call that meets an epoch the node did not know: its window is
  -- then the configured one and the node asks again with its judged one (RedisLeaseStore); a wider window must not move
  -- s over fire times that may run.
  local function lossWindowEnd()
    local known = created == lastEpoch
    local window = (configuredWindowMs ~= '' and not known) and configuredWindowMs or lossWindowMs
    local from = tonumber(created)
    if known and lossAnchor ~= '' then
      from = math.min(from, tonumber(lossAnchor))
    end
    return from + tonumber(window), known or configuredWindowMs == ''
  end

  -- Whether a recovery call restores the run record's s from the caller's memory (ARGV[14]) because the loss took it:
  -- returns the s to write, or nil (and marks the call unanchored when the caller remembers nothing to restore).
  local function restoredS(recovering)
    if not recovering or recS then
      return nil
    end
    if handledFireTime == '' then
      unanchored = true
      return nil
    end
    recS = tonumber(handledFireTime)
    recordS = handledFireTime
    return handledFireTime
  end

  -- The reply to a fire time T the loss's window refuses (T < refusedUntil), and whether this call records T as
  -- refused, moving s to it (only a recovery call that finds s short of T does), with what a catch-up passes over. A
  -- regular firing whose gap check finds fire times before T that nobody handled gets CATCH_UP instead: the caller
  -- declares them first (a 'miss' call, which records them), so this refusal never passes over fire times it cannot
  -- record.
  local function refusalAfterLoss(refusedUntil, recovering)
    if recovering and (not recS or T > recS) then
      if recS and mode ~= 'catchup' and recS < tonumber(previousFireTime) then
        return {'CATCH_UP', recS, lostUntil, created}, false, false
      end
      if recS and mode == 'catchup' then
        return {'HISTORY_LOST', epoch, refusedUntil, recordS, created}, true, true
      end
      return {'HISTORY_LOST', epoch, refusedUntil, '', created}, true, false
    end
    return {'HISTORY_LOST', epoch, refusedUntil, '', created}, false, false
  end

  -- The run record after a loss (see the header): a recovery call (gap check or catch-up) restores a record the loss
  -- took from the caller's memory (ARGV[14]), and a refusal moves s over the fire time it refuses. Writes at most one
  -- HSET of s (the restored one, or the refused fire time that moves it) and then records what this call refuses;
  -- returns the reply that ends the call, or nil when T is not refused and the call goes on.
  local function settleLoss()
    local refusedUntil, judged = lossWindowEnd()
    local recovering = (previousFireTime ~= '' or mode == 'catchup') and judged
    if recovering then
      lostUntil = string.format('%d', refusedUntil)
    end
    local handled = restoredS(recovering)
    local reply, refusedHere, passedOver
    if T < refusedUntil then
      if mode == 'catchup' and recordS ~= modeArg then
        return {'SUPERSEDED', recordS or '', '', created}
      end
      reply, refusedHere, passedOver = refusalAfterLoss(refusedUntil, recovering)
      if refusedHere then
        handled = fireTime
      end
    end
    if handled then
      redis.call('HSET', stateKey, 's', handled)
    end
    if refusedHere then
      -- the refused fire time that moves s is recorded here, so the record holds it even when the reply never reaches
      -- the caller; a catch-up's also what it passes over (ARGV[17], ARGV[18]), refused with it
      local at = clock()
      if passedOver then
        recordDecided(at, 'HISTORY_LOST', passedOverLost)
        recordDecided(at, 'HISTORY_LOST', passedOverMissed)
      end
      recordDecided(at, 'HISTORY_LOST', fireTime)
    end
    return reply
  end

  local reply = settleLoss()
  if reply then
    return reply
  end
end
if lease and owner(lease) ~= ownerToken then
  local pttl = redis.call('PTTL', leaseKey)
  if waiting == '1' then
    -- a waiter: the release publishes while this key lives (past the lease's own expiry, when nobody releases)
    redis.call('SET', waitersKey, '1', 'PX', pttl > 0 and pttl + 1000 or 60000)
  end
  return {'BUSY', lease, pttl, created}
end
if cooldown then
  return {'COOLDOWN', cooldown, redis.call('PTTL', cooldownKey), created}
end

-- The recovery checks before a grant (see the header), in line rather than in a function: every firing passes here,
-- and making a closure over this many locals cost each firing about 4 % more Redis CPU in the scripts
-- (examples/benchmarks/run-script-ab.sh). A dead run found under delivery 'most' is reported here, once (field x, and
-- the recent fire times).
if mode == 'catchup' and recordS ~= modeArg then
  return {'SUPERSEDED', recordS or '', '', created}
end
if mode == nil and recordM and T <= tonumber(recordM) then
  -- declared missed (or passed over by a catch-up) up to m: a node this late must not run it now
  return {'ALREADY_RAN', 'jg1|missed|' .. fireTime .. '|0|0|declared-missed', -2, created}
end
if mode == nil and delivery ~= '' and recSt and recSt < T and recC < recSt and recordX ~= recordSt then
  local most = string.match(delivery, '^least:(%d+)$')
  if most and recA < tonumber(most) then
    return {'RETRY', recSt, recA, created}
  end
  redis.call('HSET', stateKey, 'x', recordSt)
  recordDecided(clock(), 'ABANDONED', recordSt)
  return {'ABANDONED', recSt, recA, created}
end
if mode == nil and previousFireTime ~= '' and recS and recS < tonumber(previousFireTime) then
  return {'CATCH_UP', recS, lostUntil, created}
end
if mode == 'again' and clock() < tonumber(pendingDue) then
  return {'NOT_DUE', pendingDue, tonumber(pendingDue) - now, created}
end

-- The fencing token: see the header.
clock()
local fence = math.max(last + 1, micros)
local value = 'jg1|' .. ownerToken .. '|' .. fireTime .. '|' .. string.format('%d', now) .. '|'
    .. string.format('%d', fence) .. '|' .. nodeId
-- The marker first: NX refuses a key of another type (MGET read it as missing) before anything is written. A retry
-- runs its fire time again, over the marker of the attempt that died.
if retrying then
  redis.call('SET', markerKey, value, 'PX', markerTtlMs)
elseif not redis.call('SET', markerKey, value, 'PX', markerTtlMs, 'NX') then
  return {'ALREADY_RAN', 'non-string value', redis.call('PTTL', markerKey), created}
end
-- The lease: this attempt's own (a re-acquire of the same token for another fire time) is replaced; NX refuses a key
-- of another type, and the marker just written is taken back.
if lease then
  redis.call('SET', leaseKey, value, 'PX', leaseMs)
elseif not redis.call('SET', leaseKey, value, 'PX', leaseMs, 'NX') then
  if retrying then
    redis.call('SET', markerKey, marker, 'KEEPTTL')
  else
    redis.call('DEL', markerKey)
  end
  return {'BUSY', 'non-string value', redis.call('PTTL', leaseKey), created}
end
-- One HSET of the state's changed fields.
local fields = {'f', string.format('%d', fence)}
if (not recS or T > recS) and not unanchored then
  fields[#fields + 1] = 's'
  fields[#fields + 1] = fireTime
end
if mode == 'catchup' then
  fields[#fields + 1] = 'm'
  fields[#fields + 1] = fireTime
end
if not recSt or T >= recSt then
  fields[#fields + 1] = 'st'
  fields[#fields + 1] = fireTime
  fields[#fields + 1] = 'a'
  fields[#fields + 1] = mode == 'again' and (tonumber(modeArg) + 1) or (retrying and (recA + 1) or 1)
end
local superseded = pendingT and mode ~= 'again' and tonumber(pendingT) < T
if mode == 'again' or superseded then
  fields[#fields + 1] = 'r'
  fields[#fields + 1] = ''
end
if mode == 'again' then
  fields[#fields + 1] = 'c'
  fields[#fields + 1] = string.format('%d', T - 1)
end
redis.call('HSET', stateKey, unpack(fields))
if mode == 'catchup' then
  declare(now)
end
if superseded then
  recordDecided(now, 'RETRY_SUPERSEDED', pendingT)
  return {'ACQUIRED', now, fence, pendingT, created}
end
return {'ACQUIRED', now, fence, created}
