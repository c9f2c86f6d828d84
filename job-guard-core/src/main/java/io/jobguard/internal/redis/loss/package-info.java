/**
 * The data-loss machinery of the Redis lease store, not exported: what turns a Redis that lost a job's history
 * (restarted without persistence, flushed, failed over to a replica that missed writes, evicted job-guard's keys)
 * into {@code HISTORY_LOST} refusals instead of second runs. {@link io.jobguard.internal.redis.loss.HistoryEpochs}
 * remembers each job's epoch and highest fencing token, so a loss is noticed;
 * {@link io.jobguard.internal.redis.loss.LossWindows} judges from the fleet's clock leads
 * ({@code io.jobguard.internal.redis.fleet}) which fire times some node may have taken before the loss, never more
 * than the configured skew tolerance. Guarantee: no fire time that may have run before a loss is admitted again
 * (docs/reliability.md, "A lost history is not rerun"). Only the store's engine ({@code io.jobguard.internal.redis.run})
 * uses it.
 */
package io.jobguard.internal.redis.loss;
