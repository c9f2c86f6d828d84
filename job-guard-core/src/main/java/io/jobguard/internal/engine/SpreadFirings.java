package io.jobguard.internal.engine;

import io.jobguard.JobEvent;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.TakeOverExecutor;
import io.jobguard.internal.spread.FleetSpread;

import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * The engine's side of the fleet spread ({@link FleetSpread}): whether a regular firing is left to the job's assigned
 * node, and what the store's answer to an ask tells the spread. Without the spread (turned off, or a store that
 * carries no fleet publications) every method is a no-op and every firing asks.
 */
final class SpreadFirings implements AutoCloseable {

    /** The spread, or {@code null} when the spread is off or the store lacks it. */
    private final FleetSpread spread;

    /**
     * @param config       the node's configuration (the spread setting, node id, clock, skew tolerance)
     * @param capabilities the store's capabilities (its fleet view)
     * @param takeOver     fires a fire time this node takes over, asking the store
     */
    SpreadFirings(JobGuardConfig config, StoreCapabilities capabilities, FleetSpread.TakeOver takeOver) {
        this.spread = config.spread() && capabilities.fleet() != null
                ? new FleetSpread(config.nodeId(), capabilities.fleet(), config.clock(),
                config.skewTolerance().toMillis() + 2 * FleetSpread.GRACE_MILLIS, takeOver) : null;
    }

    private boolean spreads(JobOptions job) {
        return spread != null && FleetSpread.spreadable(job);
    }

    /** Whether a regular firing of the job is left to its assigned node (this node then sends nothing for it). */
    boolean leftToAssignedNode(JobOptions job, Instant nominalFireTime, Runnable body) {
        return spreads(job) && spread.leaveToAssignedNode(job, nominalFireTime, body);
    }

    /** Tells the spread how the store answered an ask for the job's fire time (a refusal STORE_ERROR: no answer). */
    void answered(JobOptions job, Instant nominalFireTime, EngineAdmission admission) {
        if (!spreads(job)) {
            return;
        }
        if (admission.granted() || admission.refusal() != RunOutcome.STORE_ERROR) {
            decided(job, nominalFireTime, admission.granted() || admission.refusal() == RunOutcome.ALREADY_RAN);
        } else {
            spread.unanswered(job.name(), nominalFireTime);
        }
    }

    /** Tells the spread a run of this node ended ({@link FleetSpread#ran}). */
    void ran(JobEvent event) {
        if (spread != null && event.outcome().bodyStarted()) {
            spread.ran(event.job(), event.nominalFireTime(), event.runTime());
        }
    }

    /** See {@link RecoveryEngine#decided}. */
    void decided(JobOptions job, Instant nominalFireTime, boolean settlesEarlier) {
        if (spreads(job)) {
            spread.decided(job.name(), nominalFireTime, settlesEarlier);
        }
    }

    /** See {@link RecoveryEngine#dueFrom}. */
    Instant dueFrom(JobOptions job) {
        return spread == null ? null : spread.dueFrom(job.name());
    }

    /** See {@link io.jobguard.JobGuard#declareScheduledJobs(Collection, TakeOverExecutor)}. */
    Set<String> declare(Collection<JobOptions> jobs, TakeOverExecutor takeOvers) {
        return spread == null ? Set.of() : spread.declare(jobs, takeOvers);
    }

    /** See {@link io.jobguard.JobGuard#assignedNode}. */
    Optional<String> assignedNode(String job) {
        return spread == null ? Optional.empty() : spread.assignedNode(job);
    }

    /** See {@link FleetSpread#leaving}. */
    void leaving(boolean leaving) {
        if (spread != null) {
            spread.leaving(leaving);
        }
    }

    @Override
    public void close() {
        if (spread != null) {
            spread.close();
        }
    }
}
