package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A lease store that keeps, per job, how its recent fire times ended: the node, the outcome and
 * the run's duration of each run (written by the release itself, no extra round trip), and the fire
 * times decided without a run ({@code MISSED}, {@code ABANDONED}, {@code PAUSED},
 * {@code HISTORY_LOST}: one small extra write each, only on those rare paths, and a decision that
 * several nodes reach for the same fire time is kept once). Implemented by the Redis store; the
 * list is bounded by the history size of the job's requests.
 */
public interface FireOutcomes {

    /**
     * Releases the run lease like {@link LeaseStore#releaseRun} and, in the same call, records the
     * run's outcome and duration on the fire time's history entry.
     *
     * @param request  the request the lease was taken with
     * @param cooldown the fixed-delay cool-down (zero for none)
     * @param outcome  how the run ended (e.g. {@code RAN}, {@code FAILED})
     * @param runTime  how long the body ran
     * @return {@code true} if released, {@code false} if the lease had been lost
     * @throws LeaseStoreException if the store cannot be reached
     */
    boolean releaseRun(RunLeaseRequest request, Duration cooldown, String outcome, Duration runTime);

    /**
     * {@link #releaseRun(RunLeaseRequest, Duration, String, Duration)} without making the caller wait, with
     * the ordering guarantee of {@link LeaseStore#releaseRunAsync}: this node's next acquire of the job sees
     * the release. By default the synchronous release, already completed.
     *
     * @param request  the request the lease was taken with
     * @param cooldown the fixed-delay cool-down (zero for none)
     * @param outcome  how the run ended
     * @param runTime  how long the body ran
     * @return completes with whether the lease was released, or exceptionally with a {@link LeaseStoreException}
     */
    default CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest request, Duration cooldown, String outcome,
                                                     Duration runTime) {
        try {
            return CompletableFuture.completedFuture(releaseRun(request, cooldown, outcome, runTime));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Records a fire time decided without a run, unless the same outcome is already recorded for
     * that fire time (every node that refuses a paused fire time reports it; one entry is kept).
     *
     * @param job         the job
     * @param fireTime    the fire time
     * @param nodeId      the node that decided
     * @param outcome     the outcome (e.g. {@code MISSED})
     * @param historySize how many entries the job keeps
     * @throws LeaseStoreException if the store cannot be reached
     */
    void recordOutcome(JobId job, Instant fireTime, String nodeId, String outcome, int historySize);

    /**
     * The job's recent fire times with their outcomes, newest decision first.
     *
     * @param job the job
     * @param max at most this many
     * @return the entries
     * @throws LeaseStoreException if the store cannot be reached
     */
    List<FireEntry> fireHistory(JobId job, int max);

    /**
     * One recorded fire time.
     *
     * @param nominalFireTime the fire time
     * @param node            the node that ran or decided it
     * @param outcome         how it ended; {@code RUNNING} while the run holds its lease (or when its
     *                        node died before releasing), {@code UNKNOWN} for an entry written without
     *                        an outcome
     * @param duration        how long the run took (null when nothing ran or it has not ended)
     * @param at              when it was taken (a run) or decided (no run), by the store's clock
     * @param fencingToken    the run's fencing token, -1 when nothing ran
     */
    record FireEntry(Instant nominalFireTime, String node, String outcome, Duration duration, Instant at,
                     long fencingToken) {
    }
}
