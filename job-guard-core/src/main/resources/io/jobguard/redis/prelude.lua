-- job-guard's Lua prelude: LuaScript puts this file in front of every script of this
-- folder when it loads one, so EVALSHA still sends one script and every script shares one reading of
-- the server clock and one set of key checks. It only defines local functions and writes nothing.
-- Redis reports errors by line of the combined text ('user_script:<n>'): a script's own line is
-- n minus the lines of this prelude (LuaScript.preludeLines(), docs/names-and-keys.md).
--
-- serverTime()               Redis TIME as (epoch millis, epoch micros); job-guard reads no other clock
-- counterProblem(key, text, kind)  why a fencing counter's value (text, or nil for a key of type
--                            kind) cannot be used, or nil
-- checkCounter(key)          counterProblem of the key's value (reads TYPE and, for a string, GET)
-- checkType(key, want)       why a key of another type than want blocks the script, or nil
-- noteDecided(key, size, outcome, fireTimes, at, node)  pushes 'n|<outcome>|<fire time>|<at>|<node>' to a job's
--                            recent fire times (a list kept at size entries) for each fire time of the
--                            comma-separated list, oldest first; nothing for size 0 or a key of another type
-- HISTORY_SLACK              how many entries past its size a job's recent fire times may hold between two trims
-- trimHistory(key, length, size, retentionMs)  trims a job's recent fire times (a list of length entries, newest
--                            first) to its newest size entries, then, when retentionMs > 0, drops from its tail the
--                            entries whose fire time is more than retentionMs before Redis TIME (an entry without a
--                            fire time job-guard can read counts as expired); at most 512 entries a call

local function serverTime()
  local time = redis.call('TIME')
  local seconds, micros = tonumber(time[1]), tonumber(time[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

-- Redis does not roll a script back when a command fails, so every key a script may write with a
-- type-sensitive command is checked before its first write: a key of another type, or a
-- fencing counter that is not a count from 0 below 2^53 (the next token would not be positive, or not
-- exact as a Lua number), fails the call with an error naming the key, and nothing is written.
local function counterProblem(key, text, kind)
  if text and string.match(text, '^%d+$') and #text <= 16 and tonumber(text) < 9007199254740991 then
    return nil
  end
  return 'job-guard: fencing counter ' .. key .. ' holds ' .. (text and ('"' .. text .. '"') or ('a ' .. (kind or 'value of another type')))
    .. ', not a count from 0 below 2^53, so the next fencing token would not be positive; nothing was'
    .. ' written (delete the key only if no run or batch lease of it is live)'
end
local function checkCounter(key)
  local kind = redis.call('TYPE', key).ok
  if kind == 'none' then
    return nil
  end
  if kind ~= 'string' then
    return counterProblem(key, nil, kind)
  end
  return counterProblem(key, redis.call('GET', key))
end
local function checkType(key, want)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and kind ~= want then
    return 'job-guard: key ' .. key .. ' holds a ' .. kind .. ' where job-guard keeps a ' .. want
      .. '; nothing was written (the key is not job-guard\'s: rename or delete it)'
  end
  return nil
end

-- A fire time decided without a run, in the job's recent fire times (the entry run-release.lua's readers parse).
local function noteDecided(key, size, outcome, fireTimes, at, node)
  if size <= 0 or fireTimes == '' then
    return
  end
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'list' and kind ~= 'none' then
    return
  end
  local decided = '|' .. string.format('%d', at) .. '|' .. node
  for fireTime in string.gmatch(fireTimes, '%d+') do
    redis.call('LPUSH', key, 'n|' .. outcome .. '|' .. fireTime .. decided)
  end
  redis.call('LTRIM', key, 0, size - 1)
end

local HISTORY_SLACK = 32

-- The fire time of a history entry: 'n|<outcome>|<T>|...' or any entry holding a lease value 'jg1|<token>|<T>|...'
-- (run-release.lua's header); nil for a value job-guard did not write.
local function historyFireTime(entry)
  return tonumber(string.match(entry, '^n|[^|]*|(%d+)|') or string.match(entry, 'jg1|[^|]*|(%d+)|'))
end

-- Age is checked from the tail, where the oldest entries are: one LINDEX when nothing has expired, else chunks of 64
-- (LRANGE, LTRIM), at most 8 a call so that one call's work stays bounded after a long pause; the next trim goes on.
local function trimHistory(key, length, size, retentionMs)
  if length > size then
    redis.call('LTRIM', key, 0, size - 1)
    length = size
  end
  if retentionMs <= 0 or length <= 0 then
    return
  end
  local cutoff = serverTime() - retentionMs
  local last = historyFireTime(redis.call('LINDEX', key, -1) or '')
  if last and last >= cutoff then
    return
  end
  for _ = 1, 8 do
    local tail = redis.call('LRANGE', key, -64, -1)
    local expired = 0
    for i = #tail, 1, -1 do
      local fireTime = historyFireTime(tail[i])
      if fireTime and fireTime >= cutoff then
        break
      end
      expired = expired + 1
    end
    if expired == 0 then
      return
    end
    redis.call('LTRIM', key, 0, -(expired + 1))
    if expired < #tail then
      return
    end
  end
end

-- END of prelude: the script follows.
