package io.jobguard.store;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Optional store capability: operator actions on a job, cluster-wide. Deleting a job's run lease whoever
 * holds it (an escape hatch for a stuck lease), and pausing jobs: while a job's pause flag is set, the store's
 * {@link LeaseStore#acquireRun} answers {@link AcquireResult.Status#PAUSED} in the same call that would take the
 * lease (no extra round trip per firing) and writes nothing for the fire time; and retrying by hand a fire time whose
 * run failed for good. Asked through {@link LeaseStore#capability(Class)}; pausing and retrying by hand have defaults
 * for a store that can force-release but not do them (the in-memory store), because one capability covers all.
 */
public interface OperatorControl {

    /**
     * Deletes a job's run lease whoever holds it.
     *
     * @param job the job
     * @return {@code true} if a lease was deleted
     */
    boolean forceReleaseRun(JobId job);

    /**
     * Sets the job's pause flag unless it is set. By default refused: a store that keeps it cannot pause jobs.
     *
     * @param job    the job
     * @param nodeId the node that pauses it
     * @param by     who asked ("" when unknown)
     * @return true if the flag was set by this call
     * @throws UnsupportedOperationException naming the store, by default
     */
    default boolean pause(JobId job, String nodeId, String by) {
        throw cannotPause();
    }

    /**
     * Clears the job's pause flag. By default refused: a store that keeps it cannot pause jobs.
     *
     * @param job the job
     * @return true if the flag was set
     * @throws UnsupportedOperationException naming the store, by default
     */
    default boolean resume(JobId job) {
        throw cannotPause();
    }

    /**
     * Reads the job's pause flag. By default empty: a store that cannot pause jobs never has one set.
     *
     * @param job the job
     * @return the flag, or empty when the job is not paused
     */
    default Optional<Pause> paused(JobId job) {
        return Optional.empty();
    }

    /**
     * Leaves one more attempt of a fire time whose run failed for good pending, due at once, in one atomic step:
     * only when {@code fireTime} is the job's latest started fire time, its run completed and its newest recorded
     * outcome is {@code FAILED} or {@code RETRIES_EXHAUSTED}, no attempt is pending, no run holds the lease and the job
     * is not paused. The attempt is then run as a failed run's pending retry is ({@link AcquireMode#retryFailed}), once
     * in the cluster, and the fire time's history records {@code RETRY_BY_HAND} (a note, not a run's outcome). By
     * default refused: a store that keeps it cannot retry by hand.
     *
     * @param job         the job
     * @param fireTime    the fire time to run again
     * @param nodeId      the node that asks (recorded with the note)
     * @param historySize the job's history size (the entries the store searches for the outcome; 0 finds none)
     * @return the attempt left pending, or why none was
     * @throws UnsupportedOperationException naming the store, by default
     */
    default RetryByHand retryByHand(JobId job, Instant fireTime, String nodeId, int historySize) {
        throw new UnsupportedOperationException("job-guard: not supported by the lease store " + this
                + ": it cannot retry a failed fire time by hand (the Redis store can)");
    }

    private UnsupportedOperationException cannotPause() {
        return new UnsupportedOperationException(
                "job-guard: not supported by the lease store " + this + ": it cannot pause jobs (the Redis store can)");
    }

    /**
     * A set pause flag.
     *
     * @param pausedAt when it was set, by the store's clock (null when the value is not job-guard's)
     * @param node     the node that set it
     * @param by       who asked ("" when unknown)
     */
    record Pause(Instant pausedAt, String node, String by) {
        /**
         * Checks the parts.
         *
         * @param pausedAt when it was set, or null
         * @param node     the node that set it
         * @param by       who asked
         */
        public Pause {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(by, "by");
        }
    }
}
