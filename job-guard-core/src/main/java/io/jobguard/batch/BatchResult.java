package io.jobguard.batch;

/** How one batch acquisition ended; the {@code result} tag of the batch metrics. */
public enum BatchResult {
    /** Every key is now held. */
    ACQUIRED,
    /** RETURN: some key was held by another lease; nothing was changed. */
    CONFLICT,
    /** WAIT: the keys did not all become free within the wait bound; nothing is held. */
    TIMEOUT,
    /** WAIT: the waiting thread was interrupted; nothing is held. */
    INTERRUPTED,
    /** The store failed; nothing is held. */
    ERROR
}
