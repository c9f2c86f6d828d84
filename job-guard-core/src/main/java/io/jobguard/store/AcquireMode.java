package io.jobguard.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What a run-lease attempt is for, and which recovery checks it asks the store to make (the
 * catch-up of missed fire times and at-least-once delivery). Stores that keep no run record treat
 * every attempt as {@link Kind#REGULAR} without checks and refuse the other kinds as
 * {@link AcquireResult.Status#SUPERSEDED}.
 *
 * @param kind          what the attempt is for
 * @param previous      {@link Kind#REGULAR}: the schedule's fire time immediately before this one
 *                      (the attempt is granted only once the record's latest handled fire time has
 *                      reached it, else the store answers {@link AcquireResult.Status#CATCH_UP}), or
 *                      null for no gap check; {@link Kind#CATCH_UP} and {@link Kind#MISS}: the record's
 *                      latest handled fire time the caller saw, granted only if it is still that one
 * @param delivery      {@link Kind#REGULAR}: the dead-run check ({@code null} for none)
 * @param maxAttempts   with {@link Delivery#RETRY}: how many attempts a fire time gets in all
 * @param attempt       {@link Kind#RETRY}: the attempt that died
 */
public record AcquireMode(Kind kind, Instant previous, Delivery delivery, int maxAttempts, int attempt) {

    /** A regular firing without recovery checks: what a store without a run record does. */
    public static final AcquireMode REGULAR = new AcquireMode(Kind.REGULAR, null, null, 1, 0);

    /**
     * Checks the mode.
     *
     * @throws NullPointerException if kind is null
     */
    public AcquireMode {
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * A regular firing with recovery checks.
     *
     * @param previous    the schedule's fire time immediately before this one, or null for no gap check
     * @param delivery    the dead-run check, or null for none
     * @param maxAttempts attempts a fire time gets in all under {@link Delivery#RETRY}
     * @return the mode
     */
    public static AcquireMode regular(Instant previous, Delivery delivery, int maxAttempts) {
        return new AcquireMode(Kind.REGULAR, previous, delivery, maxAttempts, 0);
    }

    /**
     * The catch-up of a missed fire time, granted only while the record's latest handled fire time
     * is {@code handled}.
     *
     * @param handled the record's latest handled fire time the caller saw
     * @return the mode
     */
    public static AcquireMode catchUp(Instant handled) {
        return new AcquireMode(Kind.CATCH_UP, Objects.requireNonNull(handled, "handled"), null, 1, 0);
    }

    /**
     * Declares fire times up to the request's missed (nothing runs), only while the record's latest
     * handled fire time is {@code handled}.
     *
     * @param handled the record's latest handled fire time the caller saw
     * @return the mode
     */
    public static AcquireMode miss(Instant handled) {
        return new AcquireMode(Kind.MISS, Objects.requireNonNull(handled, "handled"), null, 1, 0);
    }

    /**
     * Runs again the request's fire time, whose attempt {@code attempt} started and never completed.
     *
     * @param attempt the attempt that died
     * @return the mode
     */
    public static AcquireMode retry(int attempt) {
        return new AcquireMode(Kind.RETRY, null, null, 1, attempt);
    }

    /** What an attempt is for. */
    public enum Kind {
        /** A firing of the schedule. */
        REGULAR,
        /** The late run of a fire time nobody started. */
        CATCH_UP,
        /** Declaring fire times missed without running them. */
        MISS,
        /** Running again a fire time whose run died. */
        RETRY
    }

    /** The dead-run check of a regular firing. */
    public enum Delivery {
        /** Report a run that started and never completed, once; never run it again. */
        REPORT,
        /** Run it again (up to the attempts), then report it. */
        RETRY
    }
}
