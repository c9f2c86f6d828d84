package io.jobguard;

/** What a firing does when the lease store cannot be reached. */
public enum StoreFailurePolicy {
    /** Skip the firing and report {@link RunOutcome#STORE_ERROR} (the default: fail closed). */
    SKIP,
    /**
     * Run the body without a lease, logged at WARN. The cluster-wide guarantees do not hold for
     * such a run; choose this only for jobs that are safe to run on several nodes at once.
     */
    RUN
}
