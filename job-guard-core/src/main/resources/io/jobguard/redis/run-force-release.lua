-- Deletes a job's run lease whoever holds it (operator action) and wakes waiters.
--
-- KEYS[1] leaseKey: run lease
-- ARGV[1] channel: notification channel
-- ARGV[2] message: notification message
--
-- Returns 1 if a lease was deleted, 0 if there was none.

-- The keys and arguments by the names of the header, each read here once: nothing below reads KEYS or ARGV.
local leaseKey = KEYS[1]
local channel = ARGV[1]
local message = ARGV[2]

local deleted = redis.call('DEL', leaseKey)
if deleted == 1 then
  -- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
  -- the release has happened all the same and waiters fall back to polling
  redis.pcall('PUBLISH', channel, message)
end
return deleted
