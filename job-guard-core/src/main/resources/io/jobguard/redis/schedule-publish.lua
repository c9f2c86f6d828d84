-- Publishes one node's schedule of a job and returns the schedules every live node published.
-- The publication time comes from Redis TIME, so no client clock decides which claims are live.
--
-- KEYS[1] schedulesKey: schedules hash of the job (field = node id, value = "<published-at millis>|<schedule>")
-- ARGV[1] nodeId: node id
-- ARGV[2] schedule: schedule description
-- ARGV[3] ttlMs: time to live, ms
--
-- Returns a flat array of triples: node id, published-at millis, schedule description, one per claim
-- published within the time to live (the caller's own included). Older or unreadable claims are deleted;
-- the hash itself expires one time to live after the last publication.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local schedulesKey = KEYS[1]
local nodeId = ARGV[1]
local schedule = ARGV[2]
local ttlMs = ARGV[3]

local now = serverTime()
local ttl = tonumber(ttlMs)
redis.call('HSET', schedulesKey, nodeId, now .. '|' .. schedule)
local all = redis.call('HGETALL', schedulesKey)
local live = {}
for i = 1, #all, 2 do
  local value = all[i + 1]
  local sep = string.find(value, '|', 1, true)
  local at = sep and tonumber(string.sub(value, 1, sep - 1))
  if at == nil or at < now - ttl then
    redis.call('HDEL', schedulesKey, all[i])
  else
    live[#live + 1] = all[i]
    live[#live + 1] = at
    live[#live + 1] = string.sub(value, sep + 1)
  end
end
redis.call('PEXPIRE', schedulesKey, ttl)
return live
