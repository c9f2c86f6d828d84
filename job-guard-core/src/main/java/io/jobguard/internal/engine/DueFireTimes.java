package io.jobguard.internal.engine;

import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import io.jobguard.store.AcquireMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Optional;

/**
 * Fire times a live node whose clock lags this one's has not fired yet ({@link io.jobguard.store.FleetView#reachedByLaterNodes}):
 * a regular firing that finds them unhandled finds them due, not missed, and runs them, in order, each as the regular
 * firing of its fire time, before its own (docs/missed-fire-times.md, "Fire times a lagging node has not reached are
 * due, not missed"). Used by {@link MissedFireTimeRecovery}, as the job's recovery owner on this node.
 */
final class DueFireTimes {

    /** The category of the recovery's other lines. */
    private static final Logger log = LoggerFactory.getLogger(DueFireTimes.class);

    private final RecoveryEngine guard;

    DueFireTimes(RecoveryEngine guard) {
        this.guard = guard;
    }

    /**
     * The latest fire time every live node whose clock lags this one's has reached, and before the earliest some node
     * may still take over (the fleet spread), when the gap's last fire time ({@code previous}) lies after it; null when
     * the whole gap is past for every node.
     */
    Instant after(JobOptions job, Instant previous) {
        Instant reached = guard.capabilities().reachedByLaterNodes().orElse(null);
        Instant left = guard.dueFrom(job);
        if (left != null && (reached == null || left.minusMillis(1).isBefore(reached))) {
            reached = left.minusMillis(1);
        }
        return reached != null && previous != null && previous.isAfter(reached) ? reached : null;
    }

    /**
     * Runs the fire times after {@code after} and before {@code nominalFireTime}, in order, each as the regular firing
     * of its fire time (one node in the cluster wins it, as usual; one refused after a loss of the store's history is
     * passed, the refusal recorded it); stops at the first that finds a gap before it, a held lease or an unreachable
     * store: the caller's next round looks again.
     */
    void run(JobOptions job, RecoveryOptions recovery, Instant after, Instant nominalFireTime, Runnable body) {
        for (Instant due = recovery.schedule().next(after); due != null && due.isBefore(nominalFireTime);
             due = recovery.schedule().next(due)) {
            Instant before = CatchUpWindow.previous(recovery, due, guard.config().clock().instant());
            EngineAdmission admission = guard.admit(job, due,
                    AcquireMode.regular(before, MissedFireTimeRecovery.delivery(recovery), recovery.maxAttempts()));
            if (admission.granted() || admission.refusal() != RunOutcome.STORE_ERROR) {
                guard.decided(job, due, admission.granted() || admission.refusal() == RunOutcome.ALREADY_RAN);
            }
            if (admission.granted()) {
                log.debug("job-guard: job '{}' T={} node={} runs before T={}: a node whose clock lags this one's "
                        + "has not fired it yet", job.name(), due, guard.config().nodeId(), nominalFireTime);
                MissedFireTimeRecovery.runBody(admission.permit(), body);
            } else if (admission.refusal() != RunOutcome.ALREADY_RAN && admission.refusal() != RunOutcome.HISTORY_LOST) {
                return; // ALREADY_RAN: the lagging node won it; HISTORY_LOST: refused after a loss, the record moved over it
            }
        }
    }
}
