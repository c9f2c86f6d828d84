-- Releases one chunk of a batch lease: removes this lease's fields from the hash (and the hash
-- itself once nothing but its encoding marker is left) and, when the lease ends, deletes its
-- record, which frees every key of the lease in this slot at once. While the record lives nobody
-- else can have taken these keys (a key is only taken over once its holder's record is gone), so
-- fields this lease set are deleted without reading them; otherwise
-- only fields still naming this lease's token are removed, and keys re-taken by others stay theirs.
-- When the lease ends here and the hash's marker (field '', see batch-acquire.lua) names this lease,
-- every field but the marker is this lease's: the whole hash goes with one UNLINK, the lease's other
-- chunks here need no call, and nothing is read or deleted key by key.
--
-- KEYS[1] held: hash of locked keys
-- KEYS[2] record: this lease's record
-- KEYS[3] indexKey: lease index (if ARGV[3] = '1')
-- ARGV[1] token: owner token
-- ARGV[2] ends: '1' to end the lease here (delete the record, unindex); '0' to drop only these fields
--         (rolling back keys an extension had just taken)
-- ARGV[3] indexed: '1' if KEYS[3] is given
-- ARGV[4] indexEntry: the lease's index entry, or ''
-- ARGV[5] channel: notification channel
-- ARGV[6] message: notification message, or '' to publish nothing
-- ARGV[7] complete: '1' if this lease set every one of these keys (a completed chunk); '0' if unsure (a call
--         that failed on its way), which forces the owner check
-- ARGV[8] holdersMarker: the holders marker (batch-acquire.lua's ARGV[10]) if the lease ends here (every key it
--         holds in this hash is to be released) and this is the first of its chunks here; '' otherwise
-- ARGV[9..] first: the business keys, ARGV[first] to ARGV[#ARGV]; none for a first call that only tries the whole
--         release (sent when the lease's last acquire call found the hash holding its keys alone)
--
-- Returns the number of keys released, or -1 when the lease ended here as a whole: the hash held
-- only its keys and is gone with its record and index entry (ARGV[6] published), so the lease's
-- other chunks here are released too.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local held = KEYS[1]
local record = KEYS[2]
local indexKey = KEYS[3]
local token = ARGV[1]
local ends = ARGV[2]
local indexed = ARGV[3]
local indexEntry = ARGV[4]
local channel = ARGV[5]
local message = ARGV[6]
local complete = ARGV[7]
local holdersMarker = ARGV[8]
local first = 9
-- The business keys are businessKeys[first] to businessKeys[n]: ARGV itself, not a copy (a batch may hold
-- 100,000 keys).
local businessKeys, n = ARGV, #ARGV

-- BEGIN key type check (all before the first write; checkType is in prelude.lua)
local problem = indexed == '1' and checkType(indexKey, 'zset')
if problem then
  return redis.error_reply(problem)
end
-- END key type check

local call = redis.call
local SLICE = 1000
local released = 0
local kind = call('TYPE', held).ok
local whole = kind == 'hash' and holdersMarker ~= '' and call('HGET', held, '') == holdersMarker .. token

if whole then
  -- UNLINK: the hash may hold 100,000 fields, which DEL would free inside this call (tens of ms on a
  -- 2-core machine, run-batch-masters.sh); UNLINK frees them in Redis's background thread
  call('UNLINK', held)
  released = -1
elseif kind == 'hash' then
  local trusted = complete == '1' and call('EXISTS', record) == 1
  for from = first, n, SLICE do
    local to = math.min(from + SLICE - 1, n)
    if trusted then
      released = released + call('HDEL', held, unpack(businessKeys, from, to))
    else
      local values = call('HMGET', held, unpack(businessKeys, from, to))
      local mine = {}
      for i = 1, #values do
        if values[i] == token then
          mine[#mine + 1] = businessKeys[from + i - 1]
        end
      end
      if #mine > 0 then
        released = released + call('HDEL', held, unpack(mine))
      end
    end
  end
  -- Only batch-acquire.lua's encoding marker (field '') left: the namespace is idle, drop the hash.
  if released > 0 and call('HLEN', held) == 1 and call('HEXISTS', held, '') == 1 then
    call('DEL', held)
  end
end
if whole or ends == '1' then
  call('DEL', record)
  if indexed == '1' and indexEntry ~= '' then
    call('ZREM', indexKey, indexEntry)
  end
end
-- A first chunk that did not end the lease leaves its other chunks held: no wake-up yet.
if message ~= '' and (whole or holdersMarker == '' or ends == '1') then
  -- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
  -- the release has happened all the same and waiters fall back to polling
  redis.pcall('PUBLISH', channel, message)
end
return released
