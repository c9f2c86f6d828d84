-- Test script for LuaPreludeIT: exercises the functions prelude.lua puts in front of every script.
--
-- ARGV[1] 'time': returns {millis, micros} of serverTime()
--         'type': returns checkType(KEYS[1], ARGV[2]) or ''
--         'counter': returns checkCounter(KEYS[1]) or ''
--         'fail': fails on line 12 of this file (an unknown command)
if ARGV[1] == 'time' then
  local millis, micros = serverTime()
  return {millis, micros}
end
if ARGV[1] == 'fail' then
  return redis.call('NO-SUCH-COMMAND')
end
if ARGV[1] == 'type' then
  return checkType(KEYS[1], ARGV[2]) or ''
end
return checkCounter(KEYS[1]) or ''
