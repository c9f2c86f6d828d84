-- Publishes one node's clock lead to the fleet and returns every live node's (FleetLeads.java): one call per
-- node every half second, whatever the number of jobs, so each node knows the fleet's leads in memory when
-- Redis loses its data (and with it this hash).
--
-- KEYS[1] leadsKey: the leads hash of the key prefix: field = node id, value = '<published-at millis>|<lead millis>|<lateness
--         millis>' (lead -1: unknown, the node's clock stepped; lateness: how late the node fires, signed; nodes of
--         earlier releases publish no lateness); field '~lineage' = '<created millis>|new' or
--         '<created millis>|lost': when this hash was created, i.e. no later than the loss that emptied it
-- ARGV[1] nodeId: node id
-- ARGV[2] lead: its lead (ms, -1 unknown)
-- ARGV[3] retentionMs: retention (ms)
-- ARGV[4] lastLineage: the lineage this node saw last ('' if none): a node that saw another one marks a new lineage
--         'lost'
-- ARGV[5] lateness: its lateness (ms, signed; absent (nil) from nodes of earlier releases)
-- ARGV[6] spread: its spread publication ('' or absent: none), appended as a fourth field: which jobs it runs, the
--         fleet it sees and the fire times it has covered (FleetSpread.java); it holds no '|'
--
-- Returns {now, lineage, node, value, node, value, ...}: the entries published within the retention, each
-- value as published ('<published-at>|<lead>|<lateness>|<spread>', fields absent from older releases).
-- Older entries are deleted; the hash has no TTL (its lineage must outlive quiet times, as an epoch does).

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local leadsKey = KEYS[1]
local nodeId = ARGV[1]
local lead = ARGV[2]
local retentionMs = ARGV[3]
local lastLineage = ARGV[4]
local lateness = ARGV[5]
local spread = ARGV[6]

local problem = checkType(leadsKey, 'hash')
if problem then
  return redis.error_reply(problem)
end
local now = serverTime()
local lineage = redis.call('HGET', leadsKey, '~lineage')
if not lineage then
  lineage = string.format('%d', now) .. '|' .. (lastLineage == '' and 'new' or 'lost')
  redis.call('HSET', leadsKey, '~lineage', lineage)
elseif lastLineage ~= '' and lastLineage ~= lineage and string.match(lineage, '|new$') then
  lineage = string.match(lineage, '^(%d+)|') .. '|lost'
  redis.call('HSET', leadsKey, '~lineage', lineage)
end
local value = string.format('%d', now) .. '|' .. lead
if lateness then
  value = value .. '|' .. lateness
  if spread and spread ~= '' then
    value = value .. '|' .. spread
  end
end
redis.call('HSET', leadsKey, nodeId, value)
local all = redis.call('HGETALL', leadsKey)
local out = {now, lineage}
local retention = tonumber(retentionMs)
for i = 1, #all, 2 do
  if all[i] ~= '~lineage' then
    local at = tonumber(string.match(all[i + 1], '^(%d+)|'))
    if at == nil or at < now - retention then
      redis.call('HDEL', leadsKey, all[i])
    else
      out[#out + 1] = all[i]
      out[#out + 1] = all[i + 1]
    end
  end
end
return out
