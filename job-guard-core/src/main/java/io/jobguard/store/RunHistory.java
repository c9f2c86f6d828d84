package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Optional store capability: the cluster-wide live run lease of a job and its recent fire times, for
 * operators (actuator, {@code JobGuard#currentLease}, {@code JobGuard#recentFires}). A store offers it
 * only when it sees every node's leases; asked through {@link LeaseStore#capability(Class)}.
 */
public interface RunHistory {

    /**
     * The live run lease of a job, cluster-wide.
     *
     * @param job the job
     * @return the lease, or empty if none is held
     */
    Optional<LeaseRecord> currentRunLease(JobId job);

    /**
     * The most recent fire times taken for a job, newest first.
     *
     * @param job the job
     * @param max the most entries to return
     * @return the entries
     */
    List<LeaseRecord> recentFires(JobId job, int max);

    /**
     * The job's recent fire times with their outcomes, newest decision first: the runs with the outcome and
     * duration {@link OutcomeRecording#releaseRunAsync(RunLeaseRequest, Duration, RunEnd)} recorded,
     * and the fire times decided without a run that {@link OutcomeRecording#recordOutcome} recorded. By default the
     * {@link #recentFires} without outcome or duration (both null), for a store that keeps no outcomes.
     *
     * @param job the job
     * @param max at most this many
     * @return the entries
     */
    default List<FireEntry> fireHistory(JobId job, int max) {
        return recentFires(job, max).stream().map(r -> new FireEntry(r.nominalFireTime(), r.describeHolder(), null,
                null, r.acquiredAt(), r.fencingToken())).toList();
    }

    /**
     * One recorded fire time.
     *
     * @param nominalFireTime the fire time
     * @param node            the node that ran or decided it
     * @param outcome         how it ended; {@code RUNNING} while the run holds its lease (or when its
     *                        node died before releasing), {@code UNKNOWN} for an entry written without
     *                        an outcome, null from a store that keeps no outcomes
     * @param duration        how long the run took (null when nothing ran, it has not ended or the store keeps
     *                        no durations)
     * @param at              when it was taken (a run) or decided (no run), by the store's clock
     * @param fencingToken    the run's fencing token, -1 when nothing ran
     * @param attempt         the fire time's attempt this entry records, from 1 (1 when nothing ran)
     */
    record FireEntry(Instant nominalFireTime, String node, String outcome, Duration duration, Instant at,
                     long fencingToken, int attempt) {

        /**
         * An entry of a first attempt, or of a fire time decided without a run.
         *
         * @param nominalFireTime the fire time
         * @param node            the node that ran or decided it
         * @param outcome         how it ended
         * @param duration        how long the run took, or null
         * @param at              when it was taken or decided, by the store's clock
         * @param fencingToken    the run's fencing token, -1 when nothing ran
         */
        public FireEntry(Instant nominalFireTime, String node, String outcome, Duration duration, Instant at,
                         long fencingToken) {
            this(nominalFireTime, node, outcome, duration, at, fencingToken, 1);
        }
    }
}
