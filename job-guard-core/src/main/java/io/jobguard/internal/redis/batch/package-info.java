/**
 * The engine of Redis batch locks, not exported: {@link io.jobguard.internal.redis.batch.BatchLockEngine} (acquire,
 * wait, renew, release, listeners) behind {@code io.jobguard.redis.batch.RedisBatchLocks};
 * {@link io.jobguard.internal.redis.batch.BatchPlan} (a batch's keys, sorted and cut into chunks),
 * {@link io.jobguard.internal.redis.batch.BatchLayout} (one hash tag per namespace or 16 slot-range buckets, chosen
 * once), {@link io.jobguard.internal.redis.batch.BatchChunks} (the chunk protocol: one script call per chunk, rolled
 * back as a whole on a conflict), {@link io.jobguard.internal.redis.batch.BatchBuckets} (the spread layout's bucket
 * calls), {@link io.jobguard.internal.redis.batch.BatchScripts} (the batch scripts' arguments and replies) and
 * {@link io.jobguard.internal.redis.batch.RedisBatchLease} (one held batch). Guarantee: a batch holds every key or
 * none.
 */
package io.jobguard.internal.redis.batch;
