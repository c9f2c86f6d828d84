-- Takes the run lease of one job for one nominal fire time, atomically.
--
-- KEYS[1] run lease        KEYS[2] fire-time marker   KEYS[3] fencing counter
-- KEYS[4] cool-down        KEYS[5] recent fire times (list)
-- ARGV[1] owner token      ARGV[2] node id            ARGV[3] nominal fire time (epoch millis)
-- ARGV[4] lease (ms)       ARGV[5] marker TTL (ms)    ARGV[6] history size
--
-- Returns one of
--   {'ACQUIRED', acquiredAtMillis, fencingToken}   lease and marker now belong to ARGV[1]
--   {'ALREADY_RAN', markerValue, markerPttl}       the fire time was taken before
--   {'BUSY', leaseValue, leasePttl}                another run holds the lease
--   {'COOLDOWN', cooldownValue, cooldownPttl}      the fixed-delay gap is still running
--
-- Values are 'jg1|<token>|<T millis>|<acquired-at millis>|<fencing token>|<node id>'. A value of
-- another shape or type is somebody else's and is reported, never parsed here.

-- BEGIN key type check (issue 20). Redis does not roll a script back when a command fails, so
-- every key this script may write with a type-sensitive command is checked before the first write:
-- a key of another type, or a fencing counter that is not a count from 0 below 10^15 (the next
-- token would not be positive, or not exact as a Lua number), fails the call with an error naming
-- the key, and nothing is written.
local function checkCounter(key)
  local kind = redis.call('TYPE', key).ok
  if kind == 'none' then
    return nil
  end
  local value = kind == 'string' and redis.call('GET', key)
  if not value or not string.match(value, '^%d+$') or #value > 15 then
    return 'job-guard: fencing counter ' .. key .. ' holds ' .. (value and ('"' .. value .. '"') or ('a ' .. kind))
      .. ', not a count from 0 below 10^15, so the next fencing token would not be positive; nothing was'
      .. ' written (delete the key only if no run or batch lease of it is live)'
  end
  return nil
end
local function checkType(key, want)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and kind ~= want then
    return 'job-guard: key ' .. key .. ' holds a ' .. kind .. ' where job-guard keeps a ' .. want
      .. '; nothing was written (the key is not job-guard\'s: rename or delete it)'
  end
  return nil
end
local problem = checkCounter(KEYS[3]) or checkType(KEYS[5], 'list')
if problem then
  return redis.error_reply(problem)
end
-- END key type check

local function read(key)
  local value = redis.pcall('GET', key)
  if type(value) == 'table' and value.err then
    return 'non-string value'
  end
  return value
end

local function owner(value)
  return string.match(value, '^jg1|([^|]*)|')
end

local marker = read(KEYS[2])
local lease = read(KEYS[1])
if marker then
  if owner(marker) == ARGV[1] and lease and owner(lease) == ARGV[1] then
    -- The same attempt asks again (a re-executed Quartz firing): it keeps what it holds.
    local at, fence = string.match(lease, '^jg1|[^|]*|[^|]*|(%d+)|(%d+)|')
    return {'ACQUIRED', tonumber(at), tonumber(fence)}
  end
  return {'ALREADY_RAN', marker, redis.call('PTTL', KEYS[2])}
end
if lease and owner(lease) ~= ARGV[1] then
  return {'BUSY', lease, redis.call('PTTL', KEYS[1])}
end
local cooldown = read(KEYS[4])
if cooldown then
  return {'COOLDOWN', cooldown, redis.call('PTTL', KEYS[4])}
end

local fence = redis.call('INCR', KEYS[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local value = 'jg1|' .. ARGV[1] .. '|' .. ARGV[3] .. '|' .. string.format('%d', now) .. '|' .. fence .. '|' .. ARGV[2]
redis.call('SET', KEYS[1], value, 'PX', ARGV[4])
redis.call('SET', KEYS[2], value, 'PX', ARGV[5])
local history = tonumber(ARGV[6])
if history > 0 then
  redis.call('LPUSH', KEYS[5], value)
  redis.call('LTRIM', KEYS[5], 0, history - 1)
end
return {'ACQUIRED', now, fence}
