package io.jobguard;

/**
 * The result of one guarded firing. Exactly one outcome is reported per firing on each node that
 * saw it; across the cluster at most one node reports {@link #RAN} or {@link #FAILED} for a given
 * job and nominal fire time.
 */
public enum RunOutcome {
    /** This node held the lease and the job body completed normally. */
    RAN,
    /**
     * This node held the lease and the job body threw; no attempt of the fire time follows (the job retries nothing,
     * or this failure does not retry under its {@link RetryPolicy}).
     */
    FAILED,
    /**
     * This node held the lease and the job body threw; the fire time's next attempt is due after the job's retry
     * back-off, on whichever live node looks first ({@link RetryPolicy}).
     */
    RETRY_PENDING,
    /**
     * This node held the lease and the job body threw on the fire time's last attempt ({@link RetryPolicy#attempts()}):
     * the fire time failed for good.
     */
    RETRIES_EXHAUSTED,
    /**
     * A fire time's pending attempt was not run: the job's next fire time started first (runs of one job never
     * overlap, and the newer fire time wins). Reported once in the cluster, by the node that started the newer one.
     */
    RETRY_SUPERSEDED,
    /** Another node (or an earlier attempt) already took this nominal fire time; the body did not run. */
    ALREADY_RAN,
    /**
     * The fleet spread left this regular fire time to the job's assigned node ({@link JobGuard#declareScheduledJobs}):
     * this node asked nothing for it. Should that node not cover it in time, this node takes it over, and the takeover
     * is a firing of its own with its own outcome.
     */
    ASSIGNED_ELSEWHERE,
    /** Another run of the job held the lease (or the fixed-delay cool-down was active); skipped. */
    BUSY,
    /** A {@link GuardType#WAIT} firing waited {@code waitFor} without getting the lease; skipped. */
    WAIT_TIMEOUT,
    /** The lease store could not be reached; the firing was skipped (fail closed). */
    STORE_ERROR,
    /**
     * The store lost the job's history (Redis restarted without persistence, was flushed, failed
     * over to a replica that missed writes, or evicted job-guard's keys) after this fire time may
     * have run on another node; it is skipped and never caught up. Later fire times run as usual.
     */
    HISTORY_LOST,
    /**
     * Nobody started this fire time (all nodes down, skipped, or unable to reach the store) and the
     * job's {@link MisfirePolicy} does not run it (SKIP, outside the catch-up window or beyond the
     * catch-up maximum); reported once in the cluster, by the node that found it.
     */
    MISSED,
    /** This node ran a fire time nobody had started, late, under the job's {@link MisfirePolicy}; the body completed. */
    CAUGHT_UP,
    /**
     * This node ran again a fire time whose earlier attempt started and never completed (its node
     * died or lost the lease), under {@link Delivery#AT_LEAST_ONCE}; the body completed.
     */
    RETRIED,
    /**
     * A fire time's run started and never completed (its node died or lost the lease) and is not
     * run again ({@link Delivery#AT_MOST_ONCE}, or the attempts are used up); reported once in the
     * cluster.
     */
    ABANDONED,
    /**
     * An operator paused the job cluster-wide ({@link JobGuard#pause}); the firing was skipped on
     * every node until {@link JobGuard#resume}. Nothing was written for the fire time.
     */
    PAUSED;

    /**
     * Tells whether the job body was started for this outcome.
     *
     * @return {@code true} for {@link #RAN}, {@link #FAILED}, {@link #RETRY_PENDING}, {@link #RETRIES_EXHAUSTED},
     *         {@link #CAUGHT_UP} and {@link #RETRIED}
     */
    public boolean bodyStarted() {
        return this == RAN || failed() || this == CAUGHT_UP || this == RETRIED;
    }

    /**
     * Tells whether the job body threw.
     *
     * @return {@code true} for {@link #FAILED}, {@link #RETRY_PENDING} and {@link #RETRIES_EXHAUSTED}
     */
    public boolean failed() {
        return this == FAILED || this == RETRY_PENDING || this == RETRIES_EXHAUSTED;
    }
}
