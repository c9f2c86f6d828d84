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

-- END of prelude: the script follows.
