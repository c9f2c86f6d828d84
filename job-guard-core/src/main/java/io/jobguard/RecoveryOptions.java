package io.jobguard;

import io.jobguard.internal.TimeBounds;

import java.time.Duration;

/**
 * How one job recovers fire times that were lost: missed fire times nobody started
 * ({@link MisfirePolicy}) and runs that started and never completed ({@link Delivery}). Immutable;
 * every instance is valid. Used by {@link MissedFireTimes}.
 *
 * @param misfirePolicy what happens to fire times nobody started
 * @param catchUpWindow only missed fire times at most this old (by the node's clock) are run or
 *                      reported, 1 ms to {@value #MAX_WINDOW_DAYS} days
 * @param catchUpMax    the most missed fire times {@link MisfirePolicy#RUN_ALL} runs at once, 1 to 1000
 * @param delivery      what happens to runs that died
 * @param maxAttempts   under {@link Delivery#AT_LEAST_ONCE}, how many attempts a fire time gets in
 *                      all, 2 to 100
 * @param schedule      the job's grid of fire times, or null when it has none (fixed delay): then no
 *                      fire time is ever missed and only {@code delivery} applies
 */
public record RecoveryOptions(MisfirePolicy misfirePolicy, Duration catchUpWindow, int catchUpMax,
                              Delivery delivery, int maxAttempts, FireTimeSchedule schedule) {

    /** The longest catch-up window, in days (the store keeps a job's run record 35 days). */
    public static final int MAX_WINDOW_DAYS = 30;

    /** The catch-up window of jobs that set none. */
    public static final Duration DEFAULT_CATCH_UP_WINDOW = Duration.ofHours(1);

    /** The catch-up maximum of jobs that set none. */
    public static final int DEFAULT_CATCH_UP_MAX = 10;

    /** The attempts of {@link Delivery#AT_LEAST_ONCE} jobs that set none. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    /**
     * Validates the options.
     *
     * @throws IllegalArgumentException naming the offending value
     */
    public RecoveryOptions {
        if (misfirePolicy == null) {
            misfirePolicy = MisfirePolicy.SKIP;
        }
        if (catchUpWindow == null) {
            catchUpWindow = DEFAULT_CATCH_UP_WINDOW;
        }
        checkWindow(catchUpWindow, "catch-up-window");
        checkMax(catchUpMax, "catch-up-max");
        if (delivery == null) {
            delivery = Delivery.AT_MOST_ONCE;
        }
        if (maxAttempts < 2 || maxAttempts > 100) {
            throw new IllegalArgumentException("max-attempts must be 2 to 100, got " + maxAttempts);
        }
    }

    /**
     * Checks a catch-up window: 1 ms to {@value #MAX_WINDOW_DAYS} days.
     *
     * @param window  the window
     * @param culprit names the setting in the error
     * @return the window
     * @throws IllegalArgumentException naming the culprit
     */
    public static Duration checkWindow(Duration window, String culprit) {
        TimeBounds.lease(window, culprit);
        if (window.compareTo(Duration.ofDays(MAX_WINDOW_DAYS)) > 0) {
            throw new IllegalArgumentException(culprit + " must be at most " + MAX_WINDOW_DAYS + " days, got " + window);
        }
        return window;
    }

    /**
     * Checks a catch-up maximum: 1 to 1000.
     *
     * @param max     the maximum
     * @param culprit names the setting in the error
     * @return the maximum
     * @throws IllegalArgumentException naming the culprit
     */
    public static int checkMax(int max, String culprit) {
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException(culprit + " must be 1 to 1000, got " + max);
        }
        return max;
    }

    /**
     * Options with the defaults for everything but the policy, the delivery and the schedule.
     *
     * @param misfirePolicy what happens to fire times nobody started
     * @param delivery      what happens to runs that died
     * @param schedule      the job's grid of fire times, or null
     * @return the options
     */
    public static RecoveryOptions of(MisfirePolicy misfirePolicy, Delivery delivery, FireTimeSchedule schedule) {
        return new RecoveryOptions(misfirePolicy, DEFAULT_CATCH_UP_WINDOW, DEFAULT_CATCH_UP_MAX, delivery,
                DEFAULT_MAX_ATTEMPTS, schedule);
    }

    /**
     * These options with another window.
     *
     * @param window the catch-up window
     * @return new options
     */
    public RecoveryOptions withCatchUpWindow(Duration window) {
        return new RecoveryOptions(misfirePolicy, window, catchUpMax, delivery, maxAttempts, schedule);
    }

    /**
     * These options with another maximum.
     *
     * @param max the catch-up maximum
     * @return new options
     */
    public RecoveryOptions withCatchUpMax(int max) {
        return new RecoveryOptions(misfirePolicy, catchUpWindow, max, delivery, maxAttempts, schedule);
    }

    /**
     * These options with another schedule.
     *
     * @param schedule the job's grid of fire times, or null
     * @return new options
     */
    public RecoveryOptions withSchedule(FireTimeSchedule schedule) {
        return new RecoveryOptions(misfirePolicy, catchUpWindow, catchUpMax, delivery, maxAttempts, schedule);
    }
}
