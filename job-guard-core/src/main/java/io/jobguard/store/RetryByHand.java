package io.jobguard.store;

import java.util.Objects;

/**
 * The answer to an operator's retry of a failed fire time ({@link OperatorControl#retryByHand}): the attempt it left
 * pending, or why it left none. Only {@link Status#SCHEDULED} wrote anything.
 *
 * @param status  what the store did
 * @param attempt the attempt now pending (the fire time's last attempt plus one) when {@link Status#SCHEDULED}, else 0
 */
public record RetryByHand(Status status, int attempt) {

    /**
     * Checks the parts.
     *
     * @param status  what the store did
     * @param attempt the attempt now pending, or 0
     */
    public RetryByHand {
        Objects.requireNonNull(status, "status");
        if (status == Status.SCHEDULED ? attempt < 2 : attempt != 0) {
            throw new IllegalArgumentException("attempt " + attempt + " with status " + status);
        }
    }

    /**
     * Tells whether the attempt was left pending.
     *
     * @return {@code true} for {@link Status#SCHEDULED}
     */
    public boolean scheduled() {
        return status == Status.SCHEDULED;
    }

    /** What the store did with a retry by hand. */
    public enum Status {
        /** The next attempt of the fire time is pending, due at once; any node's {@code runDueRetry} runs it. */
        SCHEDULED,
        /** The fire time's run did not complete (it runs, or its node died), or it did not end in a failure. */
        NOT_FAILED,
        /** A later fire time of the job started: only the latest may run again (runs of one job never overlap). */
        NOT_LATEST,
        /** An attempt of the fire time is pending already. */
        PENDING,
        /** A run of the job holds its lease. */
        BUSY,
        /** The job is paused: resume it first. */
        PAUSED,
        /** The store has no run record of the job. */
        UNKNOWN
    }
}
