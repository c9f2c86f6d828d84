/**
 * The engine of the Redis lease store, not exported: one class per Redis call that
 * {@code io.jobguard.redis.RedisLeaseStore} makes. {@link io.jobguard.internal.redis.run.RedisRunAcquires} runs
 * {@code run-acquire.lua} with what this node remembers of the job, its arguments built by
 * {@link io.jobguard.internal.redis.run.RunAcquireArguments} and its reply decoded by
 * {@link io.jobguard.internal.redis.run.RunAcquireReply}; {@link io.jobguard.internal.redis.run.RedisRunReleases}
 * (with {@link io.jobguard.internal.redis.run.LettuceRelease}) releases and records the outcome;
 * {@link io.jobguard.internal.redis.run.RedisRunReads} and {@link io.jobguard.internal.redis.run.RunRecordFields} read
 * the live lease and the run record; {@link io.jobguard.internal.redis.run.RedisFireHistory} the recent fire times;
 * {@link io.jobguard.internal.redis.run.RedisPauseFlags} pauses and resumes;
 * {@link io.jobguard.internal.redis.run.RedisRetryByHand} leaves an operator's retry of a failed fire time pending;
 * {@link io.jobguard.internal.redis.run.SchedulePublications} shares each node's schedules;
 * {@link io.jobguard.internal.redis.run.ReleaseWaiters} tells a release whether anyone waits;
 * {@link io.jobguard.internal.redis.run.ReplicaAcknowledgement} (with
 * {@link io.jobguard.internal.redis.run.LettuceWait}) waits for replicas after a grant;
 * {@link io.jobguard.internal.redis.run.Layout1Migration} moves jobs of key layout 1. Guarantee: each admission is one
 * atomic script call timed by Redis's clock.
 */
package io.jobguard.internal.redis.run;
