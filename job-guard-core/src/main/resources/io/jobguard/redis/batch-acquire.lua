-- Locks one chunk of business keys for one batch lease, all or nothing. A key is held by lease L
-- when the namespace's hash has field <key> = L's token AND L's lease record exists; the record
-- carries the Redis TTL (PX), so a crashed holder's keys turn free when its record expires, and a
-- refused call writes nothing. Keys this lease already holds count as held.
--
-- KEYS[1] held: hash of locked keys (field = business key, value = owner token)
-- KEYS[2] record: this lease's record
-- KEYS[3] counterKey: fencing counter (if ARGV[7] = '1')
-- KEYS[4] indexKey: lease index (if ARGV[7] = '1')
-- ARGV[1] token: owner token
-- ARGV[2] nodeId: node id
-- ARGV[3] leaseMs: lease (ms)
-- ARGV[4] fencingToken: fencing token, or '' to take the next one from KEYS[3]
-- ARGV[5] acquiredAt: acquired-at (epoch ms), or '' to read Redis TIME
-- ARGV[6] maxConflicts: how many conflicting keys to report at most
-- ARGV[7] indexed: '1' if KEYS[3] and KEYS[4] are given
-- ARGV[8] creates: '1' to create the lease record (first chunk of a lease in this slot); '0' when it must exist
-- ARGV[9] recordPrefix: key prefix of lease records (a holder's record is ARGV[9] .. token; same hash tag as KEYS[1])
-- ARGV[10] holdersMarker: the holders marker (the value of the hash's field '', longer than 64 bytes; see below)
-- ARGV[11..] first: the business keys, ARGV[first] to ARGV[#ARGV]
--
-- Returns {1, fencingToken, acquiredAt, alone}: every key is now held by this lease; alone is 1 when
--           the hash holds this lease's keys alone (the marker names it), else 0;
--         {0, 0, 0, i1, holder1, pttl1, ...}: refused, nothing changed; conflicting keys by 1-based
--           position among the business keys, with the holder's record value and TTL;
--         {-1, 0, 0}: refused, nothing changed; this lease's record is gone (the lease expired).
-- Records are 'jg1|<token>||<acquired-at>|<fencing token>|<node id>'.
--
-- The hash's field '' (never a business key: blank keys are rejected) holds the marker ARGV[10],
-- followed by this call's owner token when every other field of the hash holds that token: the
-- call found no hash (an idle namespace), or found the marker naming itself. A call that finds the
-- marker naming nobody or another lease reads its keys' holders (HMGET) and writes the bare marker,
-- so a marker names a lease only while that lease alone wrote fields since the hash was created
-- (deleting fields never adds a holder). Such a call writes its keys without reading them: none
-- can be held by another lease. batch-release.lua drops the whole hash when its lease ends there.
--
-- Fencing tokens never go backwards, even when Redis lost the counter (restart without persistence,
-- FLUSHALL, eviction, failover to a replica that missed writes): a new token is
-- max(counter + 1, Redis TIME in microseconds), which assumes the Redis servers' clocks differ by
-- less than the time the loss and the way back take. Exact in Lua's doubles until the year 2255.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local held = KEYS[1]
local record = KEYS[2]
local counterKey = KEYS[3]
local indexKey = KEYS[4]
local token = ARGV[1]
local nodeId = ARGV[2]
local leaseMs = ARGV[3]
local fencingToken = ARGV[4]
local acquiredAt = ARGV[5]
local maxConflicts = ARGV[6]
local indexed = ARGV[7]
local creates = ARGV[8]
local recordPrefix = ARGV[9]
local holdersMarker = ARGV[10]
local first = 11
-- The business keys are businessKeys[first] to businessKeys[n]: ARGV itself, not a copy (a batch may hold
-- 100,000 keys).
local businessKeys, n = ARGV, #ARGV

-- BEGIN key type check (all before the first write; checkCounter and checkType are in prelude.lua)
if indexed == '1' then
  local problem = checkCounter(counterKey) or checkType(indexKey, 'zset')
  if problem then
    return redis.error_reply(problem)
  end
end
-- END key type check

local ms = tonumber(leaseMs)
local call = redis.call
local SLICE = 1000

if creates ~= '1' and call('EXISTS', record) == 0 then
  return {-1, 0, 0}
end
local kind = call('TYPE', held).ok
if kind ~= 'hash' and kind ~= 'none' then
  return {0, 0, 0, 1, 'non-hash value at ' .. held, call('PTTL', held)}
end
local alone = holdersMarker .. token
local marker = alone
if kind == 'hash' and call('HGET', held, '') ~= alone then
  marker = holdersMarker
end

-- Unless the hash holds only this lease's keys: one HMGET per slice; a holder's record is read
-- once per distinct holder.
local cap = tonumber(maxConflicts)
local holders = {}
local reply = {0, 0, 0}
local found = 0
for from = first, marker == alone and first - 1 or n, SLICE do
  local values = call('HMGET', held, unpack(businessKeys, from, math.min(from + SLICE - 1, n)))
  for i = 1, #values do
    local owner = values[i]
    if owner and owner ~= token then
      local holder = holders[owner]
      if holder == nil then
        local ok, value = pcall(call, 'GET', recordPrefix .. owner)
        if not ok then
          value = 'non-string value'
        end
        holder = value and {value, call('PTTL', recordPrefix .. owner)} or false
        holders[owner] = holder
      end
      if holder then
        reply[#reply + 1] = from + i - first
        reply[#reply + 1] = holder[1]
        reply[#reply + 1] = holder[2]
        found = found + 1
        if found >= cap then
          return reply
        end
      end
    end
  end
end
if found > 0 then
  return reply
end

local fence = fencingToken
if fence == '' then
  local _, micros = serverTime()
  local last = tonumber(call('GET', counterKey) or '0') or 0
  fence = string.format('%d', math.max(last + 1, micros))
  call('SET', counterKey, fence)
end
local at = acquiredAt
if at == '' then
  at = string.format('%d', (serverTime()))
end
-- Stale fields of expired holders are simply overwritten. The first HSET also writes the marker,
-- whose value is longer than Redis's default hash-max-listpack-value (64 bytes), which keeps the
-- hash in hashtable encoding: in the compact listpack encoding, used below 128 fields, every field
-- lookup is a linear scan, and a 100-key batch against a 100-field hash would cost Redis 10,000
-- comparisons instead of 100 lookups.
local args = {'', marker}
local k = 2
for from = first, n, SLICE do
  for i = from, math.min(from + SLICE - 1, n) do
    args[k + 1] = businessKeys[i]
    args[k + 2] = token
    k = k + 2
  end
  call('HSET', held, unpack(args, 1, k))
  k = 0
end
-- The hash outlives every live record, so fields of crashed leases vanish once the namespace is idle.
if call('PTTL', held) < ms then
  call('PEXPIRE', held, ms)
end
if creates == '1' then
  local value = 'jg1|' .. token .. '||' .. at .. '|' .. fence .. '|' .. nodeId
  call('SET', record, value, 'PX', ms)
  if indexed == '1' then
    local now = serverTime()
    call('ZREMRANGEBYSCORE', indexKey, '-inf', now)
    call('ZADD', indexKey, now + ms, value)
  end
end
return {1, tonumber(fence), tonumber(at), marker == alone and 1 or 0}
