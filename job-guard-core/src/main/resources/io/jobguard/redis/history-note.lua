-- Records a fire time decided without a run (MISSED, ABANDONED, PAUSED, HISTORY_LOST) in the job's
-- recent fire times, once per fire time and outcome: every node that refuses a paused fire time
-- reports it, and one entry is enough. A rare call, never on the path of a firing that runs.
--
-- KEYS[1] recent fire times (list, see run-acquire.lua)
-- ARGV[1] outcome           ARGV[2] fire time (epoch millis)   ARGV[3] node id
-- ARGV[4] history size (entries kept)
--
-- The entry is 'n|<outcome>|<fire time millis>|<decided-at millis, Redis TIME via prelude.lua>|<node id>'.
-- Returns 1 if recorded, 0 if that outcome was already recorded for that fire time (or the key
-- holds another type, or the history size is 0).

local size = tonumber(ARGV[4])
local kind = redis.call('TYPE', KEYS[1]).ok
if size <= 0 or (kind ~= 'list' and kind ~= 'none') then
  return 0
end
local prefix = 'n|' .. ARGV[1] .. '|' .. ARGV[2] .. '|'
for _, entry in ipairs(redis.call('LRANGE', KEYS[1], 0, size - 1)) do
  if string.sub(entry, 1, #prefix) == prefix then
    return 0
  end
end
noteDecided(KEYS[1], size, ARGV[1], ARGV[2], serverTime(), ARGV[3])
return 1
