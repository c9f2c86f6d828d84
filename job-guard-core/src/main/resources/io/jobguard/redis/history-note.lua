-- Records a fire time decided without a run (MISSED, ABANDONED, PAUSED, HISTORY_LOST) in the job's
-- recent fire times, once per fire time and outcome: every node that refuses a paused fire time
-- reports it, and one entry is enough. A rare call, never on the path of a firing that runs.
--
-- KEYS[1] historyKey: recent fire times (list, see run-acquire.lua)
-- ARGV[1] outcome: outcome
-- ARGV[2] fireTime: fire time (epoch millis)
-- ARGV[3] nodeId: node id
-- ARGV[4] historySize: history size (entries kept)
--
-- The entry is 'n|<outcome>|<fire time millis>|<decided-at millis, Redis TIME via prelude.lua>|<node id>'.
-- Returns 1 if recorded, 0 if that outcome was already recorded for that fire time (or the history size is 0), -1 if
-- the key holds another type (left alone: the caller warns, naming the key).

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local historyKey = KEYS[1]
local outcome = ARGV[1]
local fireTime = ARGV[2]
local nodeId = ARGV[3]
local historySize = ARGV[4]

local size = tonumber(historySize)
local kind = redis.call('TYPE', historyKey).ok
if kind ~= 'list' and kind ~= 'none' then
  return -1
end
if size <= 0 then
  return 0
end
local prefix = 'n|' .. outcome .. '|' .. fireTime .. '|'
for _, entry in ipairs(redis.call('LRANGE', historyKey, 0, size - 1)) do
  if string.sub(entry, 1, #prefix) == prefix then
    return 0
  end
end
noteDecided(historyKey, size, outcome, fireTime, serverTime(), nodeId)
return 1
