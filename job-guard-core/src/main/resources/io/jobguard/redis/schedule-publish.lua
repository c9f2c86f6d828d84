-- Publishes one node's schedule of a job and returns the schedules every live node published.
-- The publication time comes from Redis TIME, so no client clock decides which claims are live.
--
-- KEYS[1] schedules hash of the job (field = node id, value = "<published-at millis>|<schedule>")
-- ARGV[1] node id                 ARGV[2] schedule description        ARGV[3] time to live, ms
--
-- Returns a flat array of triples: node id, published-at millis, schedule description, one per claim
-- published within the time to live (the caller's own included). Older or unreadable claims are deleted;
-- the hash itself expires one time to live after the last publication.

local now = serverTime()
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], now .. '|' .. ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
local live = {}
for i = 1, #all, 2 do
  local value = all[i + 1]
  local sep = string.find(value, '|', 1, true)
  local at = sep and tonumber(string.sub(value, 1, sep - 1))
  if at == nil or at < now - ttl then
    redis.call('HDEL', KEYS[1], all[i])
  else
    live[#live + 1] = all[i]
    live[#live + 1] = at
    live[#live + 1] = string.sub(value, sep + 1)
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return live
