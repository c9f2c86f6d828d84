package io.jobguard.internal.engine;

import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.FleetView;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.OutcomeRecording;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.store.RunRecord;
import io.jobguard.store.RunRecovery;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The engine's store with its optional capabilities looked up once, each call falling back to what the engine does
 * where the store lacks one: without {@link RunRecovery} a regular firing is a plain acquire and a recovery attempt
 * finds nothing ({@code SUPERSEDED}); without {@link OutcomeRecording} a run is released synchronously with no outcome
 * recorded; without {@link FleetView} no node is known to fire later than this one.
 *
 * @param store    the store
 * @param recovery its run records, or {@code null}
 * @param outcomes its outcome recording, or {@code null}
 * @param fleet    its view of the fleet, or {@code null}
 */
record StoreCapabilities(LeaseStore store, RunRecovery recovery, OutcomeRecording outcomes, FleetView fleet) {

    /** Looks up the store's capabilities once. */
    static StoreCapabilities of(LeaseStore store) {
        return new StoreCapabilities(store, store.capability(RunRecovery.class).orElse(null),
                store.capability(OutcomeRecording.class).orElse(null), store.capability(FleetView.class).orElse(null));
    }

    /** The acquire of one attempt of the given kind, with its recovery checks where the store keeps run records. */
    AcquireResult acquireRun(RunLeaseRequest request, AcquireMode mode) {
        if (recovery != null) {
            return recovery.acquireRun(request, mode);
        }
        return mode.kind() == AcquireMode.Kind.REGULAR ? store.acquireRun(request)
                : AcquireResult.refused(AcquireResult.Status.SUPERSEDED, null, null);
    }

    /**
     * Whether a failed run can be left pending for another node to run again: the store must keep a run record and
     * record outcomes with the release.
     */
    boolean retriesFailedRuns() {
        return recovery != null && outcomes != null;
    }

    /** The job's run record; empty where the store keeps none. */
    Optional<RunRecord> runRecord(JobId job) {
        return recovery == null ? Optional.empty() : recovery.runRecord(job);
    }

    /**
     * Releases a run with its outcome recorded where the store records outcomes, else releases it at once. A retry is
     * left pending only where the store keeps a run record ({@link #retriesFailedRuns()}).
     */
    CompletionStage<Boolean> releaseRun(RunLeaseRequest request, Duration cooldown, RunEnd end) {
        if (outcomes != null) {
            return outcomes.releaseRunAsync(request, cooldown, end);
        }
        try {
            return CompletableFuture.completedFuture(store.releaseRun(request, cooldown));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Records a fire time decided without a run, where the store records outcomes. */
    void recordOutcome(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize) {
        if (outcomes != null) {
            outcomes.recordOutcome(job, nominalFireTime, nodeId, outcome, historySize);
        }
    }

    /** The latest fire time every live later node has reached; empty where the store knows of no such node. */
    Optional<Instant> reachedByLaterNodes() {
        return fleet == null ? Optional.empty() : fleet.reachedByLaterNodes();
    }

    /** Tells the fleet, where the store has one, that this node's admission has closed. */
    void admissionClosed() {
        if (fleet != null) {
            fleet.admissionClosed();
        }
    }
}
