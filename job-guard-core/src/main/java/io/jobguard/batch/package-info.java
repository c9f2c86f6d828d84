/**
 * Batch locks on business keys: all-or-nothing leases over thousands of keys at once, with
 * fencing tokens, owner-checked release and renewal, and RETURN or WAIT behaviour. The entry
 * point is {@link io.jobguard.batch.BatchLocks}; the Redis implementation is
 * {@link io.jobguard.redis.RedisBatchLocks}.
 */
package io.jobguard.batch;
