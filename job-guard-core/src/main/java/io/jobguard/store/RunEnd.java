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
 */
public record RunEnd(String outcome, Duration runTime, int attempt, Duration retryAfter) {

    /**
     * Checks the parts.
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
