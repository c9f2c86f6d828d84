package io.jobguard;

/**
 * What happens to a fire time whose run started and never completed: its node died, or it lost
 * the lease before the body ended.
 */
public enum Delivery {
    /** It is not run again; it is reported once as {@link RunOutcome#ABANDONED}. The default. */
    AT_MOST_ONCE,
    /**
     * It runs again once its lease expired, on the node that next fires the job or starts, with a
     * higher fencing token ({@link RunContext#isRetry()}, {@link RunContext#attempt()}); a retry that
     * dies too is retried until the attempts are used up, then reported as
     * {@link RunOutcome#ABANDONED}. With fenced writes that is effectively once.
     */
    AT_LEAST_ONCE
}
