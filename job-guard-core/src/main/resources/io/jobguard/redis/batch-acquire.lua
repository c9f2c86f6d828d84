-- Locks one chunk of business keys for one batch lease, all or nothing: SET NX PX per key, and on
-- the first key held by somebody else every key this call set is deleted again, so a refused call
-- changes nothing. Keys the same lease (owner token) already holds count as held (TTL refreshed).
--
-- KEYS     when ARGV[7] is '1': KEYS[1] fencing counter, KEYS[2] index of live batch leases,
--          then the lock keys; otherwise only lock keys (spread mode, other slots).
-- ARGV[1]  owner token             ARGV[2] node id           ARGV[3] lease (ms)
-- ARGV[4]  fencing token, or '' to take the next one from KEYS[1]
-- ARGV[5]  acquired-at (epoch ms), or '' to read Redis TIME
-- ARGV[6]  how many conflicting keys to report at most
-- ARGV[7]  '1' if KEYS[1] and KEYS[2] are the counter and the index
--
-- Returns {1, fencingToken, acquiredAt} when every key is now held by this lease, or
-- {0, fencingToken, acquiredAt, i1, value1, pttl1, i2, value2, pttl2, ...} listing conflicting
-- keys by their 1-based position among the lock keys, with the holder's value and TTL.
-- Lock values are 'jg1|<token>||<acquired-at>|<fencing token>|<node id>'.

local meta = ARGV[7] == '1'
local first = meta and 3 or 1
local fence = ARGV[4]
if fence == '' then
  fence = redis.call('INCR', KEYS[1])
end
local at = ARGV[5]
if at == '' then
  local time = redis.call('TIME')
  at = string.format('%d', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000))
end
local value = 'jg1|' .. ARGV[1] .. '||' .. at .. '|' .. fence .. '|' .. ARGV[2]
local prefix = 'jg1|' .. ARGV[1] .. '|'
local ms = ARGV[3]
local n = #KEYS
local call = redis.call
local set = {}
local count = 0
local conflictAt = nil
for i = first, n do
  if call('SET', KEYS[i], value, 'NX', 'PX', ms) then
    count = count + 1
    set[count] = KEYS[i]
  else
    local held = redis.pcall('GET', KEYS[i])
    if type(held) == 'string' and string.find(held, prefix, 1, true) == 1 then
      call('PEXPIRE', KEYS[i], ms)
    else
      conflictAt = i
      break
    end
  end
end

if conflictAt == nil then
  if meta then
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
    redis.call('ZADD', KEYS[2], now + tonumber(ms), value)
  end
  return {1, tonumber(fence), tonumber(at)}
end

for j = 1, count, 500 do
  call('DEL', unpack(set, j, math.min(j + 499, count)))
end
local reply = {0, tonumber(fence), tonumber(at)}
local cap = tonumber(ARGV[6])
local reported = 0
for i = conflictAt, n do
  if reported >= cap then
    break
  end
  local held = redis.pcall('GET', KEYS[i])
  if type(held) == 'table' then
    held = 'non-string value'
  end
  if held and string.find(held, prefix, 1, true) ~= 1 then
    reply[#reply + 1] = i - first + 1
    reply[#reply + 1] = held
    reply[#reply + 1] = redis.call('PTTL', KEYS[i])
    reported = reported + 1
  end
end
return reply
