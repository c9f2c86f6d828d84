package io.jobguard.internal.engine;

import io.jobguard.Delivery;
import io.jobguard.JobOptions;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.List;

/**
 * The outcomes {@link MissedFireTimeRecovery} decides without a run ({@code MISSED}, {@code HISTORY_LOST},
 * {@code ABANDONED}), told by the one node that decided them: one WARN line per decision, and each fire time to the
 * engine's listeners and, unless the deciding call already recorded it, to the store.
 */
final class RecoveryReports {

    /** The category these lines had when recovery logged them itself, which log configurations name. */
    private static final Logger log = LoggerFactory.getLogger(RecoveryReports.class);

    private final RecoveryEngine guard;

    RecoveryReports(RecoveryEngine guard) {
        this.guard = guard;
    }

    /** Reports {@code missed} (and counts {@code outside} older ones) as {@code MISSED}; the declaring call recorded them. */
    void missed(JobOptions job, RecoveryOptions recovery, List<Instant> missed, int outside) {
        decided(job, recovery, RunOutcome.MISSED, missed, outside, true,
                "nobody started them and policy " + recovery.misfirePolicy() + " does not run them");
    }

    /**
     * Reports the fire times after {@code after} and before {@code refused} (in the catch-up window) as
     * {@link RunOutcome#HISTORY_LOST}: the store refused them with the catch-up of {@code refused} after it lost the
     * job's history, and recorded them in that call; this node is the one that moved the run record over them. They
     * are never run.
     */
    void lost(JobOptions job, RecoveryOptions recovery, Instant after, Instant refused) {
        CatchUpWindow.FireTimes passed = CatchUpWindow.between(recovery, after, refused, false,
                guard.config().clock().instant());
        lost(job, recovery, passed.inWindow(), passed.outside(), true);
    }

    /**
     * Reports {@code lost} as refused after the store lost the job's history (and counts {@code outside} older ones);
     * {@code recorded}: the declaring call already recorded them in the store.
     */
    void lost(JobOptions job, RecoveryOptions recovery, List<Instant> lost, int outside, boolean recorded) {
        decided(job, recovery, RunOutcome.HISTORY_LOST, lost, outside, recorded, "refused after the store lost the "
                + "job's history (nobody can tell whether they ran before it; they are never run)");
    }

    /** Reports a run that started and never completed as {@code ABANDONED}; the store recorded it with the decision. */
    void abandoned(JobOptions job, RecoveryOptions recovery, Instant nominalFireTime, int attempt) {
        log.warn("job-guard: job '{}' T={} node={} ABANDONED: its run (attempt {}) started and never completed (node "
                        + "died or lease lost); delivery {}{} does not run it again", job.name(), nominalFireTime,
                guard.config().nodeId(), attempt, recovery.delivery(),
                recovery.delivery() == Delivery.AT_LEAST_ONCE ? " after " + attempt + " attempts" : "");
        guard.report(job, nominalFireTime, RunOutcome.ABANDONED, true);
    }

    private void decided(JobOptions job, RecoveryOptions recovery, RunOutcome outcome, List<Instant> fireTimes,
                         int outside, boolean recorded, String why) {
        if (fireTimes.isEmpty() && outside == 0) {
            return;
        }
        log.warn("job-guard: job '{}' node={} {} fire time(s) {}, {}: {}{}", job.name(), guard.config().nodeId(),
                fireTimes.size() + outside, outcome, why, fireTimes, outside == 0 ? ""
                        : " and " + outside + " older than the catch-up window " + recovery.catchUpWindow());
        for (Instant nominalFireTime : fireTimes) {
            guard.report(job, nominalFireTime, outcome, recorded);
        }
    }
}
