package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The answer of a store to one run-lease attempt.
 *
 * @param status       what happened
 * @param fencingToken for {@link Status#ACQUIRED}: strictly greater than every token handed out
 *                     before for this job (-1 when the store has no fencing)
 * @param acquiredAt   for {@link Status#ACQUIRED}: when, by the store's clock (null if unknown); for
 *                     {@link Status#CATCH_UP} after the store lost the job's history: the fire time from which
 *                     fire times are no longer refused ({@link Status#HISTORY_LOST}), null otherwise
 * @param holder       for the refusals: who holds the marker or the lease, if known
 * @param retryAfter   for {@link Status#BUSY} and {@link Status#COOLDOWN}: time until the blocking
 *                     lease or cool-down expires by itself, if known; for {@link Status#HISTORY_LOST}: time
 *                     until the fire times are no longer refused (by the store's clock), if known
 * @param record       for the recovery statuses ({@link Status#CATCH_UP}, {@link Status#RETRY},
 *                     {@link Status#ABANDONED}): what the store's run record said; for {@link Status#HISTORY_LOST}:
 *                     when not null, the fire times after its {@code handled} and before the request's were refused
 *                     with it (the store moved the record over them) and the caller reports them; else null
 */
public record AcquireResult(Status status, long fencingToken, Instant acquiredAt, LeaseRecord holder,
                            Duration retryAfter, RunRecord record) {

    /**
     * A result without a run record.
     *
     * @param status       what happened
     * @param fencingToken the fencing token, or -1
     * @param acquiredAt   when, by the store's clock, or null
     * @param holder       who blocks, or null
     * @param retryAfter   when the block expires by itself, or null
     */
    public AcquireResult(Status status, long fencingToken, Instant acquiredAt, LeaseRecord holder,
                         Duration retryAfter) {
        this(status, fencingToken, acquiredAt, holder, retryAfter, null);
    }

    /**
     * Checks the result.
     *
     * @throws NullPointerException if status is null
     */
    public AcquireResult {
        Objects.requireNonNull(status, "status");
    }

    /**
     * A successful acquisition.
     *
     * @param fencingToken the fencing token
     * @param acquiredAt   when, by the store's clock
     * @return the result
     */
    public static AcquireResult acquired(long fencingToken, Instant acquiredAt) {
        return new AcquireResult(Status.ACQUIRED, fencingToken, acquiredAt, null, null);
    }

    /**
     * A refusal.
     *
     * @param status     ALREADY_RAN, BUSY, COOLDOWN or HISTORY_LOST
     * @param holder     who blocks, or null
     * @param retryAfter when the block expires by itself, or null
     * @return the result
     */
    public static AcquireResult refused(Status status, LeaseRecord holder, Duration retryAfter) {
        return new AcquireResult(status, -1, null, holder, retryAfter);
    }

    /** What a run-lease attempt found. */
    public enum Status {
        /** The lease and the fire-time marker are now held by the requesting token. */
        ACQUIRED,
        /** The fire time was already taken (by another node or an earlier attempt). */
        ALREADY_RAN,
        /** Another run of the job holds the lease. */
        BUSY,
        /** The fixed-delay cool-down after the previous run is still active. */
        COOLDOWN,
        /**
         * The store lost the job's history (restart without persistence, flush, failover to a
         * replica that missed writes, eviction) after the fire time may have run; it is never run.
         */
        HISTORY_LOST,
        /** Gap check: fire times before this one were never handled; nothing was taken. */
        CATCH_UP,
        /** Dead-run check: the latest started run never completed and may run again; nothing was taken. */
        RETRY,
        /** Dead-run check: the latest started run never completed; reported once, never run again. */
        ABANDONED,
        /** The fire times up to the request's were declared missed by this caller. */
        MISSED,
        /** A catch-up, miss or retry attempt found that another node had handled it first. */
        SUPERSEDED,
        /** An operator paused the job cluster-wide (see {@link OperatorControl#pause}); nothing was written. */
        PAUSED,
        /**
         * A retry of a failed attempt is not due yet by the store's clock ({@link AcquireResult#retryAfter()} says how
         * long it still waits); nothing was written.
         */
        NOT_DUE
    }
}
