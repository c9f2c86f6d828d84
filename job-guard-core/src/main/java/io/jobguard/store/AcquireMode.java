package io.jobguard.store;

import java.time.Instant;
import java.util.List;
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
 * @param attempt       {@link Kind#RETRY}: the attempt that died; {@link Kind#RETRY_FAILED}: the attempt that failed
 * @param declaredLost   {@link Kind#CATCH_UP} and {@link Kind#MISS}: fire times this attempt passes over as refused
 *                       after a loss of the store's history; when it is granted (or declares), the store records each
 *                       as {@code HISTORY_LOST} in the job's recent fire times in the same step, so that a node that
 *                       dies right after deciding leaves them recorded
 * @param declaredMissed the same for the fire times it passes over as {@code MISSED}
 */
public record AcquireMode(Kind kind, Instant previous, Delivery delivery, int maxAttempts, int attempt,
                          List<Instant> declaredLost, List<Instant> declaredMissed) {

    /** A regular firing without recovery checks: what a store without a run record does. */
    public static final AcquireMode REGULAR = new AcquireMode(Kind.REGULAR, null, null, 1, 0, List.of(), List.of());

    /**
     * Checks the mode.
     *
     * @throws NullPointerException if kind or a list is null
     */
    public AcquireMode {
        Objects.requireNonNull(kind, "kind");
        declaredLost = List.copyOf(declaredLost);
        declaredMissed = List.copyOf(declaredMissed);
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
        return new AcquireMode(Kind.REGULAR, previous, delivery, maxAttempts, 0, List.of(), List.of());
    }

    /**
     * The catch-up of a missed fire time, granted only while the record's latest handled fire time
     * is {@code handled}.
     *
     * @param handled the record's latest handled fire time the caller saw
     * @return the mode
     */
    public static AcquireMode catchUp(Instant handled) {
        return catchUp(handled, List.of(), List.of());
    }

    /**
     * The first catch-up of a gap, which also declares the fire times before it that the gap passes over: recorded by
     * the store with the grant.
     *
     * @param handled the record's latest handled fire time the caller saw
     * @param lost    fire times passed over as refused after a loss of the store's history
     * @param missed  fire times passed over as missed (the misfire policy does not run them)
     * @return the mode
     */
    public static AcquireMode catchUp(Instant handled, List<Instant> lost, List<Instant> missed) {
        return new AcquireMode(Kind.CATCH_UP, Objects.requireNonNull(handled, "handled"), null, 1, 0, lost, missed);
    }

    /**
     * Declares fire times up to the request's missed (nothing runs), only while the record's latest
     * handled fire time is {@code handled}.
     *
     * @param handled the record's latest handled fire time the caller saw
     * @return the mode
     */
    public static AcquireMode miss(Instant handled) {
        return miss(handled, List.of(), List.of());
    }

    /**
     * Declares fire times up to the request's missed, as {@link #miss(Instant)}, recording the fire times it passes over
     * with the declaration.
     *
     * @param handled the record's latest handled fire time the caller saw
     * @param lost    fire times passed over as refused after a loss of the store's history
     * @param missed  fire times passed over as missed
     * @return the mode
     */
    public static AcquireMode miss(Instant handled, List<Instant> lost, List<Instant> missed) {
        return new AcquireMode(Kind.MISS, Objects.requireNonNull(handled, "handled"), null, 1, 0, lost, missed);
    }

    /**
     * Runs again the request's fire time, whose attempt {@code attempt} started and never completed.
     *
     * @param attempt the attempt that died
     * @return the mode
     */
    public static AcquireMode retry(int attempt) {
        return new AcquireMode(Kind.RETRY, null, null, 1, attempt, List.of(), List.of());
    }

    /**
     * Runs the request's fire time again after its attempt {@code attempt} threw and the job's retry policy scheduled
     * another: granted once the retry is due by the store's clock (else {@link AcquireResult.Status#NOT_DUE}), while
     * the record still holds it pending (else {@link AcquireResult.Status#SUPERSEDED}).
     *
     * @param attempt the attempt that failed
     * @return the mode
     */
    public static AcquireMode retryFailed(int attempt) {
        return new AcquireMode(Kind.RETRY_FAILED, null, null, 1, attempt, List.of(), List.of());
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
        RETRY,
        /** Running again a fire time whose run threw, after the retry back-off. */
        RETRY_FAILED
    }

    /** The dead-run check of a regular firing. */
    public enum Delivery {
        /** Report a run that started and never completed, once; never run it again. */
        REPORT,
        /** Run it again (up to the attempts), then report it. */
        RETRY
    }
}
