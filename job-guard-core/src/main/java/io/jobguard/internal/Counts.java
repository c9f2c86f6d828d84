package io.jobguard.internal;

/**
 * Range checks for the counts in job-guard's settings (chunk sizes, key limits, history sizes), shared by the
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
}
