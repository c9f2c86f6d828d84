package io.jobguard.internal.engine;

import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.RunLeaseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;

/**
 * The WARN lines of one engine's firings that would repeat on every firing while their cause lasts (store
 * down, a foreign value blocking a key, lost history): each is logged once per job per minute with a count, under
 * this class's logger (below {@code io.jobguard}, which operators filter on).
 */
final class FiringWarnings {

    private static final Logger log = LoggerFactory.getLogger(FiringWarnings.class);

    private final LeaseStore store;
    private final JobGuardConfig config;
    private final HistoryLossLog historyLoss;
    private final RateLimitedLog repeated;

    FiringWarnings(LeaseStore store, JobGuardConfig config) {
        this.store = store;
        this.config = config;
        this.historyLoss = new HistoryLossLog(config.namespace(), config.nodeId());
        this.repeated = new RateLimitedLog(config.clock(), Duration.ofMinutes(1));
    }

    void historyLost(JobOptions job, Instant nominalFireTime, LeaseRecord epoch, Duration refusalLeft) {
        historyLoss.warn(job.name(), nominalFireTime, epoch,
                refusalLeft == null ? null : config.clock().instant().plus(refusalLeft));
    }

    /** The line names the store (its Redis endpoint) and carries every cause's own words. */
    void storeFailed(JobOptions job, RunLeaseRequest request, boolean runUnguarded, RuntimeException e) {
        if (runUnguarded) {
            repeated.warn(log, "store-failure|" + job.name(),
                    "job-guard: job '{}' T={} node={} store {} unreachable ({}); running UNGUARDED as configured",
                    job.name(), request.nominalFireTime(), config.nodeId(), store, RateLimitedLog.causeChain(e));
        } else {
            repeated.warn(log, "store-failure|" + job.name(),
                    "job-guard: job '{}' T={} node={} outcome STORE_ERROR, skipped: store {} failed: {}", job.name(),
                    request.nominalFireTime(), config.nodeId(), store, RateLimitedLog.causeChain(e));
        }
    }

    /**
     * A refusal by a value job-guard did not write (another type, another format) or by an entry
     * without an expiry blocks the job until someone removes it, so it is a WARN naming the key,
     * once per job per minute, not a DEBUG line.
     */
    void blockedByForeignValue(JobOptions job, RunLeaseRequest request, AcquireResult result) {
        LeaseRecord holder = result.holder();
        // HISTORY_LOST's holder is the epoch (no TTL by design), not a blocking entry: HistoryLossLog reports it
        if (result.status() == AcquireResult.Status.ACQUIRED || result.status() == AcquireResult.Status.HISTORY_LOST
                || holder == null || (!holder.foreign() && holder.expiresIn() != null)) {
            return;
        }
        repeated.warn(log, "foreign-value|" + job.name(),
                "job-guard: job '{}' T={} node={} refused ({}) by {} at key {} ({}); it blocks the job until it "
                        + "expires or is deleted", job.name(), request.nominalFireTime(), config.nodeId(),
                result.status(), holder.foreign() ? "a value job-guard did not write" : "an entry with no expiry",
                store.blockingKey(request, result.status()),
                holder.foreign() ? "value '" + holder.raw() + "'" + (holder.expiresIn() == null ? ", no TTL" : "")
                        : "no TTL");
    }
}
