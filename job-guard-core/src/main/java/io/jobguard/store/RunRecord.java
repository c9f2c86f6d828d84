package io.jobguard.store;

import java.time.Instant;

/**
 * A job's run record in the store, written by the scripts that acquire and release run
 * leases: what the store knows about the job's latest fire times.
 *
 * @param handled   the latest fire time started or declared missed, or null if unknown
 * @param started   the latest fire time started, or null if unknown
 * @param attempt   the attempt number of {@code started} (1 for its first run)
 * @param completed the latest fire time whose run completed (released its lease), or null
 * @param retry     the attempt a failed run left due, or null when none is pending
 */
public record RunRecord(Instant handled, Instant started, int attempt, Instant completed, PendingRetry retry) {

    /**
     * A record without a pending retry.
     *
     * @param handled   the latest fire time started or declared missed, or null if unknown
     * @param started   the latest fire time started, or null if unknown
     * @param attempt   the attempt number of {@code started} (1 for its first run)
     * @param completed the latest fire time whose run completed (released its lease), or null
     */
    public RunRecord(Instant handled, Instant started, int attempt, Instant completed) {
        this(handled, started, attempt, completed, null);
    }

    /**
     * Tells whether the run of {@link #started()} never completed.
     *
     * @return {@code true} if a run started after the latest completed one
     */
    public boolean startedNotCompleted() {
        return started != null && (completed == null || completed.isBefore(started));
    }

    /**
     * The next attempt of a fire time whose run threw, due at a time of the store's clock.
     *
     * @param fireTime     the fire time
     * @param failedAttempt the attempt that threw (the pending one is the next)
     * @param due          when it is due, by the store's clock
     */
    public record PendingRetry(Instant fireTime, int failedAttempt, Instant due) {
    }
}
