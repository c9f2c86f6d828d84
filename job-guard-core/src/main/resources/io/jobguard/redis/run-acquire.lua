-- Takes the run lease of one job for one nominal fire time, atomically.
--
-- KEYS[1] run lease (string, TTL)    KEYS[2] fire-time marker (string, TTL)
-- KEYS[3] the job's state (hash, key layout 2, no TTL; fields below)
-- KEYS[4] cool-down (string, TTL)    KEYS[5] release waiters (string, TTL: set while a WAIT caller waits)
-- KEYS[6], KEYS[7], KEYS[8] the job's epoch, fencing counter and run record in key layout 1 (read only when
--          KEYS[3] has no epoch: a job kept in layout 1 is refused until migrated, see below)
-- KEYS[9] the job's recent fire times (list, run-release.lua): written only by a call that decides fire times without
--          a run (ARGV[17], ARGV[18], ABANDONED, a HISTORY_LOST refusal that moves s)
-- ARGV[1] owner token      ARGV[2] node id            ARGV[3] nominal fire time (epoch millis)
-- ARGV[4] lease (ms)       ARGV[5] marker TTL (ms): lease + the marker's retention after the run
-- ARGV[6] the epoch this node saw last for the job ('<created millis>', '' if none)
-- ARGV[7] history-loss window (ms): after a loss, fire times before epoch start + window are refused
-- ARGV[8] the highest fencing token this node saw for the job ('0' if none)
-- ARGV[9] gap check: the schedule's fire time immediately before ARGV[3] (epoch millis), '' for none
--          (none when it is older than the catch-up window): a regular firing is granted only once the
--          record's s has reached it, so it never moves s past fire times nobody handled
-- ARGV[10] delivery check: '' none, 'most' (report a run that died), 'least:<max attempts>' (retry it)
-- ARGV[11] mode: '' a regular firing, 'catchup:<s>' a missed fire time, granted only while the
--          record's s is still <s> (so catch-ups run in order, each once), 'miss:<s>' declare the fire
--          times up to ARGV[3] missed (nothing runs), 'retry:<a>' run again the fire time whose
--          attempt <a> started and never completed
-- ARGV[12] history-loss window (ms) used instead of ARGV[7] when the epoch is not the one in ARGV[6]:
--          ARGV[7] may be measured for that epoch only (LossWindows.java); '' = always ARGV[7]
-- ARGV[13] with ARGV[7], when the epoch is the one in ARGV[6]: the Redis time no earlier than the loss the window
--          counts from, if earlier than the epoch's creation (the fleet's leads hash was re-created by the same
--          loss, LossWindows.java); '' = the epoch's creation
-- ARGV[14] the latest fire time this node saw handled for the job (epoch millis: granted, taken before, refused
--          HISTORY_LOST or declared missed), '' if none: restores the run record's s after a loss took it
-- ARGV[15] '1' when the caller waits for the lease's release (WAIT, or a RETURN firing's busy grace): a BUSY reply
--          then sets KEYS[5], so that the release publishes; '' otherwise (releases nobody waits for publish nothing)
-- ARGV[16] history size (entries of KEYS[9] kept): a reply ABANDONED, MISSED, a granted catch-up or a HISTORY_LOST
--          refusal that moves the record's s records the fire times it decides there
-- ARGV[17], ARGV[18] modes 'catchup' and 'miss': the fire times (epoch millis, comma-separated, ascending) this call
--          passes over as refused after a loss (HISTORY_LOST) and as missed (MISSED); recorded in KEYS[9] with the
--          grant or the declaration (a catch-up refused after a loss records both as HISTORY_LOST), in this same
--          call, so that a node that dies right after deciding leaves them recorded ('' for none)
--
-- Returns one of (the last element is always the epoch's creation time, for the node to remember)
--   {'ACQUIRED', acquiredAtMillis, fencingToken, epoch}   lease and marker now belong to ARGV[1]
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
--   {'SUPERSEDED', s, '', epoch}       modes 'catchup', 'miss', 'retry': another node got there first
--   {'PAUSED', pauseValue, -1, epoch}                     an operator paused the job cluster-wide;
--                                                  nothing is written ('' as epoch when none exists)
--
-- The job's state (KEYS[3]) is one hash, read with one HMGET and written with at most one HSET per grant:
--   e  the epoch ('<created millis>|new' or '<created millis>|lost', see below)
--   f  the fencing counter (the last token granted)
--   p  the pause flag, set by an operator: '<paused-at millis>|<node>|<by>'; absent when running
--   s  the latest fire time handled (started or declared missed)   st  the latest fire time started
--   a  the attempt of st    c  the latest fire time completed (run-release.lua)    x  the last dead run reported
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

-- Everything is read before the first write (Redis does not roll a script back when a command fails). MGET answers
-- nil both for a missing key and for one of another type: the grant writes the marker and the lease with SET NX,
-- which refuses a key of another type, so such a key reads as held by 'non-string value' (reported, never parsed).
local values = redis.call('MGET', KEYS[1], KEYS[2], KEYS[4])
local lease, marker, cooldown = values[1], values[2], values[3]
local state = redis.pcall('HMGET', KEYS[3], 'e', 'f', 'p', 's', 'st', 'a', 'c', 'x', 'm')
if state.err then
  return redis.error_reply(checkType(KEYS[3], 'hash') or state.err)
end
local epoch, counter, paused = state[1], state[2], state[3]
local rec = {state[4], state[5], state[6], state[7], state[8], state[9]}
local problem = counter and counterProblem(KEYS[3] .. ' field f', counter)
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

if not epoch and redis.call('EXISTS', KEYS[6], KEYS[7], KEYS[8]) > 0 then
  return redis.error_reply('job-guard: ' .. KEYS[6] .. ', ' .. KEYS[7] .. ' or ' .. KEYS[8] .. ' exists: the job is kept in'
    .. ' key layout 1 (job-guard 0.x), which nodes of that version may still use; this node keeps jobs in layout 2 ('
    .. KEYS[3] .. ') and runs nothing of the job until it is migrated: stop every node of the old version, then call'
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
    return redis.error_reply('job-guard: ' .. KEYS[3] .. ' field e holds a value job-guard did not write')
  end
  if kind == 'new' and ARGV[6] ~= '' and ARGV[6] ~= created then
    kind = 'lost'
    epoch = created .. '|' .. kind
    redis.call('HSET', KEYS[3], 'e', epoch)
  end
else
  created = string.format('%d', clock())
  kind = ARGV[6] == '' and 'new' or 'lost'
  epoch = created .. '|' .. kind
  redis.call('HSET', KEYS[3], 'e', epoch)
end
local last = tonumber(counter or '0')
local seen = tonumber(ARGV[8]) or 0
if seen > last then
  -- a 'lost' epoch created after that token's grant (tokens are at least the grant's TIME in µs) already
  -- dates the loss: the nodes that each saw a higher token must not move it on, one after another
  if kind ~= 'lost' or tonumber(created) * 1000 < seen then
    created = string.format('%d', clock())
    kind = 'lost'
    epoch = created .. '|' .. kind
  end
  last = seen
  redis.call('HSET', KEYS[3], 'e', epoch, 'f', string.format('%d', seen))
end

-- Decided fire times go to the recent fire times (KEYS[9]) in the call that decides them (noteDecided, prelude.lua), so
-- a node that dies right after deciding leaves them recorded.
local function recordDecided(at, outcome, fireTimes)
  noteDecided(KEYS[9], tonumber(ARGV[16]) or 0, outcome, fireTimes, at, ARGV[2])
end

-- What a catch-up or a declaration passes over (ARGV[17], ARGV[18]).
local function declare(at)
  recordDecided(at, 'HISTORY_LOST', ARGV[17])
  recordDecided(at, 'MISSED', ARGV[18])
end

local recS, recSt, recA = tonumber(rec[1]), tonumber(rec[2]), tonumber(rec[3]) or 1
local recC = tonumber(rec[4]) or 0
local T = tonumber(ARGV[3])
local mode, modeArg = string.match(ARGV[11] or '', '^(%a+):(%d+)$')
local retrying = false
if mode == 'miss' then
  if rec[1] ~= modeArg then
    return {'SUPERSEDED', rec[1] or '', '', created}
  end
  redis.call('HSET', KEYS[3], 's', ARGV[3], 'm', ARGV[3])
  declare(clock())
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
  if mode == 'catchup' and rec[1] == modeArg and (not recS or T > recS) then
    -- the fire time was handled (its marker says so) though the record's s had not reached it (after a loss, a
    -- grant by a node with nothing to restore leaves s behind): s moves over it, so the gap check goes on
    redis.call('HSET', KEYS[3], 's', ARGV[3])
  end
  return {'ALREADY_RAN', marker, redis.call('PTTL', KEYS[2]), created}
end
local lostUntil = ''
-- after a loss, a recovery call of a node that remembers no handled fire time, on a record the loss took: its grant
-- must not set s, or the fire times between what other nodes remember and this one would be passed over unreported
local unanchored = false
if kind == 'lost' then
  local known = created == ARGV[6]
  local window = (ARGV[12] ~= '' and not known) and ARGV[12] or ARGV[7]
  local from = tonumber(created)
  if known and ARGV[13] ~= '' then
    from = math.min(from, tonumber(ARGV[13]))
  end
  local refusedUntil = from + tonumber(window)
  -- The run record after a loss (see the header): a recovery call (gap check or catch-up) restores a record the
  -- loss took from the caller's memory (ARGV[14]), and a refusal moves s over the fire time it refuses.
  -- not on the first call that meets an epoch the node did not know: its window is the configured one and the node
  -- asks again with its judged one (RedisLeaseStore); a wider window must not move s over fire times that may run
  local judged = known or ARGV[12] == ''
  local recovering = (ARGV[9] ~= '' or mode == 'catchup') and judged
  if recovering then
    lostUntil = string.format('%d', refusedUntil)
  end
  local restored = recovering and not recS and ARGV[14] ~= ''
  unanchored = recovering and not recS and ARGV[14] == ''
  if restored then
    recS = tonumber(ARGV[14])
    rec[1] = ARGV[14]
  end
  local handled = restored and ARGV[14] or nil
  local reply, refusedHere, passedOver
  if T < refusedUntil then
    if mode == 'catchup' and rec[1] ~= modeArg then
      return {'SUPERSEDED', rec[1] or '', '', created}
    end
    local after = ''
    if recovering and (not recS or T > recS) then
      if recS and mode ~= 'catchup' and recS < tonumber(ARGV[9]) then
        -- fire times before this one that nobody handled: the caller declares them first (a 'miss' call, which
        -- records them), so this refusal never passes over fire times it cannot record
        reply = {'CATCH_UP', recS, lostUntil, created}
      else
        if recS and mode == 'catchup' then
          after = rec[1]
          passedOver = true
        end
        handled = ARGV[3]
        refusedHere = true
      end
    end
    reply = reply or {'HISTORY_LOST', epoch, refusedUntil, after, created}
  end
  -- one write of the record's s: the restored one, or the refused fire time that moves it
  if handled then
    redis.call('HSET', KEYS[3], 's', handled)
  end
  if refusedHere then
    -- the refused fire time that moves s is recorded here, so the record holds it even when the reply never reaches
    -- the caller; a catch-up's also what it passes over (ARGV[17], ARGV[18]), refused with it
    local at = clock()
    if passedOver then
      recordDecided(at, 'HISTORY_LOST', ARGV[17])
      recordDecided(at, 'HISTORY_LOST', ARGV[18])
    end
    recordDecided(at, 'HISTORY_LOST', ARGV[3])
  end
  if reply then
    return reply
  end
end
if lease and owner(lease) ~= ARGV[1] then
  local pttl = redis.call('PTTL', KEYS[1])
  if ARGV[15] == '1' then
    -- a waiter: the release publishes while this key lives (past the lease's own expiry, when nobody releases)
    redis.call('SET', KEYS[5], '1', 'PX', pttl > 0 and pttl + 1000 or 60000)
  end
  return {'BUSY', lease, pttl, created}
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
if mode == nil and ARGV[10] ~= '' and recSt and recSt < T and recC < recSt and rec[5] ~= rec[2] then
  local most = string.match(ARGV[10], '^least:(%d+)$')
  if most and recA < tonumber(most) then
    return {'RETRY', recSt, recA, created}
  end
  redis.call('HSET', KEYS[3], 'x', rec[2])
  recordDecided(clock(), 'ABANDONED', rec[2])
  return {'ABANDONED', recSt, recA, created}
end
if mode == nil and ARGV[9] ~= '' and recS and recS < tonumber(ARGV[9]) then
  return {'CATCH_UP', recS, lostUntil, created}
end

-- The fencing token: see the header.
clock()
local fence = math.max(last + 1, micros)
local value = 'jg1|' .. ARGV[1] .. '|' .. ARGV[3] .. '|' .. string.format('%d', now) .. '|'
    .. string.format('%d', fence) .. '|' .. ARGV[2]
-- The marker first: NX refuses a key of another type (MGET read it as missing) before anything is written. A retry
-- runs its fire time again, over the marker of the attempt that died.
if retrying then
  redis.call('SET', KEYS[2], value, 'PX', ARGV[5])
elseif not redis.call('SET', KEYS[2], value, 'PX', ARGV[5], 'NX') then
  return {'ALREADY_RAN', 'non-string value', redis.call('PTTL', KEYS[2]), created}
end
-- The lease: this attempt's own (a re-acquire of the same token for another fire time) is replaced; NX refuses a key
-- of another type, and the marker just written is taken back.
if lease then
  redis.call('SET', KEYS[1], value, 'PX', ARGV[4])
elseif not redis.call('SET', KEYS[1], value, 'PX', ARGV[4], 'NX') then
  if retrying then
    redis.call('SET', KEYS[2], marker, 'KEEPTTL')
  else
    redis.call('DEL', KEYS[2])
  end
  return {'BUSY', 'non-string value', redis.call('PTTL', KEYS[1]), created}
end
-- One HSET of the state's changed fields.
local fields = {'f', string.format('%d', fence)}
if (not recS or T > recS) and not unanchored then
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
redis.call('HSET', KEYS[3], unpack(fields))
if mode == 'catchup' then
  declare(now)
end
return {'ACQUIRED', now, fence, created}
