/**
 * The data-loss machinery of the Redis lease store, not exported: what turns a Redis that lost a job's history
 * (restarted without persistence, flushed, failed over to a replica that missed writes, evicted job-guard's keys)
 * into {@code HISTORY_LOST} refusals instead of second runs. {@link io.jobguard.internal.redis.loss.HistoryEpochs}
 * remembers each job's epoch and highest fencing token, so a loss is noticed;
 * {@link io.jobguard.internal.redis.loss.FleetLeads} publishes and reads the fleet's clock leads (one hash per key
 * prefix, per Cluster shard: {@link io.jobguard.internal.redis.loss.LeadShards});
 * {@link io.jobguard.internal.redis.loss.LossWindows} judges from them which fire times some node may have taken
 * before the loss, never more than the configured skew tolerance. Guarantee: no fire time that may have run before a
 * loss is admitted again (docs/reliability.md, "A lost history is not rerun"). Only {@code io.jobguard.redis} uses
 * it; the Redis keys and scripts it reads and writes are the store's ({@code fleet-leads.lua},
 * {@code run-acquire.lua}).
 */
package io.jobguard.internal.redis.loss;
