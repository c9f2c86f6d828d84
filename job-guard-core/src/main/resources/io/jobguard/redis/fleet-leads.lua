-- Publishes one node's clock lead to the fleet and returns every live node's (FleetLeads.java): one call per
-- node every half second, whatever the number of jobs, so each node knows the fleet's leads in memory when
-- Redis loses its data (and with it this hash).
--
-- KEYS[1] the leads hash of the key prefix: field = node id, value = '<published-at millis>|<lead millis>|<lateness
--         millis>' (lead -1: unknown, the node's clock stepped; lateness: how late the node fires, signed; nodes of
--         earlier releases publish no lateness); field '~lineage' = '<created millis>|new' or
--         '<created millis>|lost': when this hash was created, i.e. no later than the loss that emptied it
-- ARGV[1] node id    ARGV[2] its lead (ms, -1 unknown)    ARGV[3] retention (ms)
-- ARGV[4] the lineage this node saw last ('' if none): a node that saw another one marks a new lineage 'lost'
-- ARGV[5] its lateness (ms, signed; absent from nodes of earlier releases)
--
-- Returns {now, lineage, node, value, node, value, ...}: the entries published within the retention.
-- Older entries are deleted; the hash has no TTL (its lineage must outlive quiet times, as an epoch does).

local problem = checkType(KEYS[1], 'hash')
if problem then
  return redis.error_reply(problem)
end
local now = serverTime()
local lineage = redis.call('HGET', KEYS[1], '~lineage')
if not lineage then
  lineage = string.format('%d', now) .. '|' .. (ARGV[4] == '' and 'new' or 'lost')
  redis.call('HSET', KEYS[1], '~lineage', lineage)
elseif ARGV[4] ~= '' and ARGV[4] ~= lineage and string.match(lineage, '|new$') then
  lineage = string.match(lineage, '^(%d+)|') .. '|lost'
  redis.call('HSET', KEYS[1], '~lineage', lineage)
end
local value = string.format('%d', now) .. '|' .. ARGV[2]
if ARGV[5] then
  value = value .. '|' .. ARGV[5]
end
redis.call('HSET', KEYS[1], ARGV[1], value)
local all = redis.call('HGETALL', KEYS[1])
local out = {now, lineage}
local retention = tonumber(ARGV[3])
for i = 1, #all, 2 do
  if all[i] ~= '~lineage' then
    local at = tonumber(string.match(all[i + 1], '^(%d+)|'))
    if at == nil or at < now - retention then
      redis.call('HDEL', KEYS[1], all[i])
    else
      out[#out + 1] = all[i]
      out[#out + 1] = all[i + 1]
    end
  end
end
return out
