/**
 * Batch locks in Redis, as users create them: {@link io.jobguard.redis.batch.RedisBatchLocks} takes all the keys of a
 * batch or none, with a fencing token per acquisition, owner-checked renewal and release, and leases that expire by
 * Redis's clock. The engine (key layout, plan, chunks, buckets, scripts) is internal:
 * {@code io.jobguard.internal.redis.batch}; the keys are described in {@link io.jobguard.batch}.
 */
package io.jobguard.redis.batch;
