-- Deletes a job's run lease whoever holds it (operator action) and wakes waiters.
--
-- KEYS[1] run lease
-- ARGV[1] notification channel                        ARGV[2] notification message
--
-- Returns 1 if a lease was deleted, 0 if there was none.

local deleted = redis.call('DEL', KEYS[1])
if deleted == 1 then
  -- pcall: a user without channel rights (Redis 7's default for new ACL users) cannot publish;
  -- the release has happened all the same and waiters fall back to polling
  redis.pcall('PUBLISH', ARGV[1], ARGV[2])
end
return deleted
