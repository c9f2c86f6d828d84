-- Moves one job's state from key layout 1 into its layout-2 state hash (run-acquire.lua), then deletes the layout-1
-- keys. Run only once no node of the old version runs: until then run-acquire.lua refuses the job.
--
-- KEYS[1] stateKey: the job's state (hash, layout 2)
-- KEYS[2] layout1EpochKey: layout-1 epoch (string)
-- KEYS[3] layout1CounterKey: layout-1 fencing counter (string)
-- KEYS[4] layout1RecordKey: layout-1 run record (hash)
-- KEYS[5] layout1PausedKey: layout-1 pause flag (string)
-- No ARGV.
--
-- The lease, the fire-time markers, the cool-down and the history have the same keys and values in both layouts, so a
-- fire time the old layout ran stays refused by its marker. The merge never lets a later firing run what either
-- side already handled: the counter and the record's s and m take the larger value of the two sides, st with its
-- a, c and x come from the side that started the later fire time, and a pause flag of either side is kept. The epoch
-- of the state hash is kept when it has one, else layout 1's is taken as it is (no loss is judged: none happened).
--
-- Returns 1 when layout-1 keys were found and moved, 0 when there were none. A key of another type among them fails
-- the call naming the key, before anything is written.

-- The keys by the names of the header, each read here once: nothing below reads KEYS.
local stateKey = KEYS[1]
local layout1EpochKey = KEYS[2]
local layout1CounterKey = KEYS[3]
local layout1RecordKey = KEYS[4]
local layout1PausedKey = KEYS[5]

local function text(key)
  local problem = checkType(key, 'string')
  if problem then
    return nil, problem
  end
  return redis.call('GET', key)
end

local problem = checkType(stateKey, 'hash') or checkType(layout1RecordKey, 'hash')
if problem then
  return redis.error_reply(problem)
end
local oldEpoch, p1 = text(layout1EpochKey)
local oldCounter, p2 = text(layout1CounterKey)
local oldPaused, p3 = text(layout1PausedKey)
problem = p1 or p2 or p3 or (oldCounter and counterProblem(layout1CounterKey, oldCounter))
if problem then
  return redis.error_reply(problem)
end
local old = {}
local flat = redis.call('HGETALL', layout1RecordKey)
for i = 1, #flat, 2 do
  old[flat[i]] = flat[i + 1]
end
if not oldEpoch and not oldCounter and not oldPaused and #flat == 0 then
  return 0
end
local state = redis.call('HMGET', stateKey, 'e', 'f', 'p', 's', 'st', 'a', 'c', 'x', 'm')
-- The state hash's fields by their names (run-acquire.lua lists them), as old holds layout 1's record.
local cur = {e = state[1], f = state[2], p = state[3], s = state[4], st = state[5], a = state[6], c = state[7],
  x = state[8], m = state[9]}
local function larger(a, b)
  if not a then return b end
  if not b then return a end
  return tonumber(a) >= tonumber(b) and a or b
end
local fields = {}
local function put(name, value)
  if value then
    fields[#fields + 1] = name
    fields[#fields + 1] = value
  end
end
put('e', cur.e or (oldEpoch and string.match(oldEpoch, '^%d+|%a+$') and oldEpoch) or nil)
put('f', larger(cur.f, oldCounter))
put('p', cur.p or oldPaused)
put('s', larger(cur.s, old.s))
put('m', larger(cur.m, old.m))
local curStarted, oldStarted = tonumber(cur.st), tonumber(old.st)
if oldStarted and (not curStarted or oldStarted > curStarted) then
  put('st', old.st)
  put('a', old.a)
  put('c', larger(old.c, cur.c))
  put('x', old.x)
end
if #fields > 0 then
  redis.call('HSET', stateKey, unpack(fields))
end
redis.call('DEL', layout1EpochKey, layout1CounterKey, layout1RecordKey, layout1PausedKey)
return 1
