package io.jobguard.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How a run ended, recorded with its release ({@link OutcomeRecording#releaseRunAsync}).
 *
 * @param outcome    how the run ended (e.g. {@code RAN}, {@code FAILED}, {@code RETRY_PENDING}), {@code ""} when unknown
 * @param runTime    how long the body ran
 * @param attempt    the fire time's attempt this run was, from 1
 * @param retryAfter for a run that threw and retries: how long after the release, by the store's clock, the fire
 *                   time's next attempt is due (a store with {@link RunRecovery} keeps it pending on the run record
 *                   until a node runs it or the job's next fire time starts); null for none
 * @param failureClass   for a run that threw: the exception's class name, at most {@value #MAX_FAILURE_TEXT} characters;
 *                       null for none
 * @param failureMessage for a run that threw: the first line of the exception's message, at most
 *                       {@value #MAX_FAILURE_TEXT} characters (longer ones are cut and end with "..."); null for none
 */
public record RunEnd(String outcome, Duration runTime, int attempt, Duration retryAfter, String failureClass,
                     String failureMessage) {

    /** The most characters of a failure's class name or message line kept on the run's history entry. */
    public static final int MAX_FAILURE_TEXT = 200;

    /**
     * Checks the parts and bounds the failure's text: the message's first line only, each at most
     * {@value #MAX_FAILURE_TEXT} characters.
     *
     * @throws NullPointerException     if the outcome or the run time is null
     * @throws IllegalArgumentException if the attempt is below 1 or the retry delay negative
     */
    public RunEnd {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(runTime, "runTime");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, got " + attempt);
        }
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative, got " + retryAfter);
        }
        failureClass = bounded(failureClass);
        failureMessage = bounded(firstLine(failureMessage));
        if (failureClass == null) {
            failureMessage = null;
        }
    }

    /**
     * The end of a run without failure details.
     *
     * @param outcome    how the run ended
     * @param runTime    how long the body ran
     * @param attempt    the fire time's attempt this run was, from 1
     * @param retryAfter the delay before the next attempt, or null for none
     */
    public RunEnd(String outcome, Duration runTime, int attempt, Duration retryAfter) {
        this(outcome, runTime, attempt, retryAfter, null, null);
    }

    /**
     * This end with the failure's class and the first line of its message ({@code ""} for a failure without one).
     *
     * @param failure what the run threw, or null for none (this end unchanged)
     * @return the end
     */
    public RunEnd withFailure(Throwable failure) {
        if (failure == null) {
            return this;
        }
        String message = failure.getMessage();
        return new RunEnd(outcome, runTime, attempt, retryAfter, failure.getClass().getName(),
                message == null ? "" : message);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return null;
        }
        int end = 0;
        while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
            end++;
        }
        return text.substring(0, end).strip();
    }

    private static String bounded(String text) {
        if (text == null || text.length() <= MAX_FAILURE_TEXT) {
            return text;
        }
        int cut = MAX_FAILURE_TEXT - 3;
        // never split a surrogate pair: the entry is UTF-8 in Redis
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        return text.substring(0, cut) + "...";
    }

    /**
     * The end of a first attempt that schedules no retry.
     *
     * @param outcome how the run ended
     * @param runTime how long the body ran
     * @return the end
     */
    public static RunEnd of(String outcome, Duration runTime) {
        return new RunEnd(outcome, runTime, 1, null);
    }
}
