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
 */
public record RunRecord(Instant handled, Instant started, int attempt, Instant completed) {

    /**
     * Tells whether the run of {@link #started()} never completed.
     *
     * @return {@code true} if a run started after the latest completed one
     */
    public boolean startedNotCompleted() {
        return started != null && (completed == null || completed.isBefore(started));
    }
}
