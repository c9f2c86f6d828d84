package io.jobguard.micrometer;

/**
 * The names and tags of job-guard's meters. They are a contract: dashboards and alerts depend on
 * them, so they change only with a major version. Tags are low-cardinality: never a fire time, a
 * token or a business key.
 */
public final class MetricNames {

    /**
     * Counter of firings by outcome; tags {@link #TAG_JOB}, {@link #TAG_OUTCOME} (a {@link io.jobguard.RunOutcome}),
     * {@link #TAG_NAMESPACE}, {@link #TAG_ATTEMPT}. A job's counters of every outcome at attempt 1 exist at 0 from its
     * published schedule or its first firing on this node; those of later attempts from their first count. With the
     * fleet spread, a node counts {@link io.jobguard.RunOutcome#ASSIGNED_ELSEWHERE} for each fire time it left to the
     * job's assigned node, and a fire time it takes over later counts again with the take-over's own outcome.
     */
    public static final String JOB_RUNS = "jobguard.job.runs";
    /** Timer of the decision (including WAIT); tags job, outcome, namespace. */
    public static final String JOB_ACQUIRE = "jobguard.job.acquire";
    /** Timer of job bodies that ran; tags job, outcome (RAN or FAILED), namespace. */
    public static final String JOB_DURATION = "jobguard.job.duration";
    /** Gauge of leases (run and batch) this node holds now; tag namespace. */
    public static final String LEASES_ACTIVE = "jobguard.leases.active";
    /**
     * Counter of leases lost while running; tags job (or the batch namespace), namespace. A job's counter exists at 0
     * from its published schedule or its first firing on this node.
     */
    public static final String LEASE_LOST = "jobguard.lease.lost";
    /** Timer of batch acquisitions; tags {@link #TAG_RESULT}, namespace. */
    public static final String BATCH_ACQUIRE = "jobguard.batch.acquire";
    /** Distribution summary of keys per batch acquisition; tag namespace. */
    public static final String BATCH_KEYS = "jobguard.batch.keys";
    /** Gauge: this node's clock minus the Redis server clock, in seconds; tag namespace. */
    public static final String CLOCK_SKEW = "jobguard.clock.skew";
    /**
     * Gauge: the configured skew tolerance ({@code jobguard.skew-tolerance}), in seconds; tag namespace. Alerts
     * compare {@link #CLOCK_SKEW} with half of it, where this node starts to WARN.
     */
    public static final String CLOCK_SKEW_TOLERANCE = "jobguard.clock.skew.tolerance";
    /**
     * Gauge: the nominal fire time of the newest run that ended on this node (ran, failed, caught up or retried),
     * in seconds since the epoch; tags job, namespace; registered when the job's first run on this node ends. The
     * cluster's last run of a job is the maximum over its nodes.
     */
    public static final String JOB_LAST_RUN = "jobguard.job.last.run";
    /**
     * Gauge: the job's next nominal fire time after now by this node's scheduler, in seconds since the epoch (NaN
     * when its schedule has no fire-time grid: fixed delay, one-time, disabled); tags job, namespace; registered
     * with the job's schedule ({@link JobGuardMetrics#schedule}).
     */
    public static final String JOB_NEXT_FIRE_TIME = "jobguard.job.next.fire.time";
    /**
     * Gauge: the job's period in seconds: the gap between its next fire time and the one after it (the delay of a
     * fixed-delay job; NaN when it has none); tags job, namespace. With {@link #JOB_LAST_RUN} it lets one alert
     * rule say "overdue by N periods" for every schedule.
     */
    public static final String JOB_PERIOD = "jobguard.job.period";
    /**
     * Gauge: 1 while the newest firing of the job decided on this node was refused because an operator paused the
     * job cluster-wide ({@link io.jobguard.RunOutcome#PAUSED}), 0 after it was decided otherwise (and before its
     * first firing here); tags job, namespace. A store error, a missed or abandoned fire time leave it unchanged. A fire
     * time left to the job's assigned node ({@link io.jobguard.RunOutcome#ASSIGNED_ELSEWHERE}) sets it to 0: with the
     * fleet spread, the job's pause shows on the node that asks Redis, so the cluster's flag is the maximum over its
     * nodes.
     */
    public static final String JOB_PAUSED = "jobguard.job.paused";

    /** Tag: the job name. */
    public static final String TAG_JOB = "job";
    /** Tag: the outcome of a firing. */
    public static final String TAG_OUTCOME = "outcome";
    /** Tag: the namespace. */
    public static final String TAG_NAMESPACE = "namespace";
    /** Tag: the result of a batch acquisition (acquired, conflict, timeout, error). */
    public static final String TAG_RESULT = "result";
    /**
     * Tag of {@link #JOB_RUNS}: the fire time's attempt the firing was, {@code 1} for its first run (and for a firing
     * that ran nothing), {@code 2} for its first retry.
     */
    public static final String TAG_ATTEMPT = "attempt";

    private MetricNames() {
    }
}
