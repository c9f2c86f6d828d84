package io.jobguard;

/**
 * What happens to fire times of a job that nobody started: every node was down, restarting, or
 * could not reach the store at that moment, or every node skipped it. The node that next fires the
 * job, or starts, finds them in the job's run record; whatever the policy decides happens once in
 * the cluster. Only jobs with a fire-time grid (cron, fixed rate, Quartz triggers) have missed fire
 * times; fixed-delay jobs never do.
 */
public enum MisfirePolicy {
    /** Missed fire times are not run; each is reported once as {@link RunOutcome#MISSED}. */
    SKIP,
    /**
     * The latest missed fire time within the catch-up window runs once, cluster-wide, before the
     * next regular run; earlier ones are reported as {@link RunOutcome#MISSED}.
     */
    RUN_LATEST,
    /**
     * Each missed fire time within the catch-up window runs once, cluster-wide, in order, at most
     * the catch-up maximum of them (the latest ones); the others are reported as
     * {@link RunOutcome#MISSED}.
     */
    RUN_ALL
}
