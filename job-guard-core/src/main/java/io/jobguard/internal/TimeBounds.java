package io.jobguard.internal;

import java.time.Duration;
import java.time.Instant;

/**
 * Range checks for the durations and fire times job-guard turns into Redis milliseconds. Every
 * duration is at most {@link #MAX_DURATION} and every fire time within {@link #EARLIEST_FIRE_TIME}
 * and {@link #LATEST_FIRE_TIME}, so that no later sum or conversion to milliseconds can overflow:
 * an absurd value is bad input named by its parameter, never an {@link ArithmeticException} or a
 * store error at the first firing. Leases are at least one millisecond, the resolution of Redis
 * expiry (a shorter lease would be rounded up silently).
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class TimeBounds {

    /** The longest accepted duration: 3,650 days (about ten years). */
    public static final Duration MAX_DURATION = Duration.ofDays(3650);

    /** The earliest accepted nominal fire time: the epoch. */
    public static final Instant EARLIEST_FIRE_TIME = Instant.EPOCH;

    /** The latest accepted nominal fire time: the end of the year 9999 (UTC). */
    public static final Instant LATEST_FIRE_TIME = Instant.parse("9999-12-31T23:59:59.999Z");

    /** The longest accepted catch-up window, in days (the store keeps a job's run record 35 days). */
    public static final int MAX_CATCH_UP_WINDOW_DAYS = 30;

    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    private TimeBounds() {
    }

    /**
     * Checks a lease: at least 1 ms, at most {@link #MAX_DURATION}.
     *
     * @param value   the lease
     * @param culprit what the value configures, named in the message (for example {@code "lease of job 'x'"})
     * @return the lease
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static Duration lease(Duration value, String culprit) {
        positive(value, culprit);
        if (value.compareTo(ONE_MILLI) < 0) {
            throw new IllegalArgumentException(culprit + " must be at least 1 ms (Redis expires keys in whole "
                    + "milliseconds), got " + value);
        }
        return value;
    }

    /**
     * Checks a catch-up window: 1 ms to {@value #MAX_CATCH_UP_WINDOW_DAYS} days.
     *
     * @param window  the window
     * @param culprit names the setting in the message
     * @return the window
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static Duration catchUpWindow(Duration window, String culprit) {
        lease(window, culprit);
        if (window.compareTo(Duration.ofDays(MAX_CATCH_UP_WINDOW_DAYS)) > 0) {
            throw new IllegalArgumentException(culprit + " must be at most " + MAX_CATCH_UP_WINDOW_DAYS
                    + " days, got " + window);
        }
        return window;
    }

    /**
     * Checks a duration that must be above zero and at most {@link #MAX_DURATION}.
     *
     * @param value   the duration
     * @param culprit what the value configures, named in the message
     * @return the duration
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static Duration positive(Duration value, String culprit) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(culprit + " must be positive, got " + value);
        }
        return atMostMax(value, culprit);
    }

    /**
     * Checks a duration that must be zero or above and at most {@link #MAX_DURATION}.
     *
     * @param value   the duration, not null
     * @param culprit what the value configures, named in the message
     * @return the duration
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static Duration nonNegative(Duration value, String culprit) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(culprit + " must not be negative, got " + value);
        }
        return atMostMax(value, culprit);
    }

    /**
     * Checks a nominal fire time: not null, between {@link #EARLIEST_FIRE_TIME} and {@link #LATEST_FIRE_TIME}.
     *
     * @param nominalFireTime the fire time
     * @param culprit         what the fire time is, named in the message
     * @return the fire time
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static Instant nominalFireTime(Instant nominalFireTime, String culprit) {
        if (nominalFireTime == null) {
            throw new IllegalArgumentException(culprit + " is null");
        }
        if (nominalFireTime.isBefore(EARLIEST_FIRE_TIME) || nominalFireTime.isAfter(LATEST_FIRE_TIME)) {
            throw new IllegalArgumentException(culprit + " must be between " + EARLIEST_FIRE_TIME + " and "
                    + LATEST_FIRE_TIME + ", got " + nominalFireTime);
        }
        return nominalFireTime;
    }

    private static Duration atMostMax(Duration value, String culprit) {
        if (value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(culprit + " must be at most " + MAX_DURATION.toDays() + " days, got "
                    + value);
        }
        return value;
    }
}
