/**
 * Batch locks in Redis: {@link io.jobguard.redis.batch.RedisBatchLocks} takes all the keys of a batch or none, with
 * a fencing token per acquisition, owner-checked renewal and release, and leases that expire by Redis's clock. The
 * key layout (one hash tag per namespace, or spread over 16 slot-range buckets on a Cluster with several masters),
 * the plan, chunks, buckets and scripts are package-private; the keys are described in {@link io.jobguard.batch}.
 */
package io.jobguard.redis.batch;
