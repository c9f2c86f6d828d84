package io.jobguard.internal;

/**
 * Range checks for the counts in job-guard's settings (chunk sizes, key limits, history sizes). They are shared by the
 * core's config records and the Spring Boot properties check so that both refuse the same values with the same
 * message, naming the setting.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class Counts {

    private Counts() {
    }

    /**
     * Checks a count that must be at least one.
     *
     * @param value   the count
     * @param culprit what the count configures, named in the message
     * @return the count
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static int positive(int value, String culprit) {
        if (value <= 0) {
            throw new IllegalArgumentException(culprit + " must be positive, got " + value);
        }
        return value;
    }

    /**
     * Checks a count that may be zero.
     *
     * @param value   the count
     * @param culprit what the count configures, named in the message
     * @return the count
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static int nonNegative(int value, String culprit) {
        if (value < 0) {
            throw new IllegalArgumentException(culprit + " must not be negative, got " + value);
        }
        return value;
    }

    /**
     * Checks a catch-up maximum: 1 to 1000.
     *
     * @param max     the maximum
     * @param culprit names the setting in the message
     * @return the maximum
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static int catchUpMax(int max, String culprit) {
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException(culprit + " must be 1 to 1000, got " + max);
        }
        return max;
    }

    /**
     * Checks an attempt count of at-least-once delivery: 2 to 100.
     *
     * @param maxAttempts the attempts
     * @param culprit     names the setting in the message
     * @return the attempts
     * @throws IllegalArgumentException naming the culprit and the value
     */
    public static int maxAttempts(int maxAttempts, String culprit) {
        if (maxAttempts < 2 || maxAttempts > 100) {
            throw new IllegalArgumentException(culprit + " must be 2 to 100, got " + maxAttempts);
        }
        return maxAttempts;
    }
}
