package io.jobguard;

import java.time.Instant;

/**
 * Thrown when a guarded run must not go on writing because its lease is gone. The lease is gone when its deadline
 * passed without a successful renewal, the store said the lease is no longer this run's, or it is being given up
 * at shutdown. Another node may already be running the job, so work that would now commit (a database
 * transaction, a fenced write) is refused rather than risk a second writer.
 *
 * <p>Thrown by {@link RunContext#checkLease()}, by the transaction check of the Spring module before a
 * commit, and by fenced writes ({@code io.jobguard.fencing}) whose token is no longer the highest.
 */
public class LeaseLostException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String job;
    private final Instant nominalFireTime;
    private final long fencingToken;

    /**
     * Creates the exception for a run.
     *
     * @param job             the job's name (null if unknown)
     * @param nominalFireTime the fire time the run was admitted for (null if unknown)
     * @param fencingToken    the run's fencing token (-1 if none)
     * @param message         what was refused and why
     */
    public LeaseLostException(String job, Instant nominalFireTime, long fencingToken, String message) {
        super(message);
        this.job = job;
        this.nominalFireTime = nominalFireTime;
        this.fencingToken = fencingToken;
    }

    /**
     * Creates the exception for the run of {@code context}.
     *
     * @param context the run whose lease is gone
     * @param what    what was refused (for example "commit")
     * @return the exception
     */
    public static LeaseLostException of(RunContext context, String what) {
        return new LeaseLostException(context.job(), context.nominalFireTime(), context.fencingToken(),
                "job '" + context.job() + "' T=" + context.nominalFireTime() + " (fencing token "
                        + context.fencingToken() + ") lost its lease: " + what + " refused, another node may be"
                        + " running the job");
    }

    /**
     * The job's name.
     *
     * @return the job, or null when not known (a fenced write refused by the resource itself)
     */
    public String job() {
        return job;
    }

    /**
     * The fire time the run was admitted for.
     *
     * @return the fire time, or null if unknown
     */
    public Instant nominalFireTime() {
        return nominalFireTime;
    }

    /**
     * The run's fencing token.
     *
     * @return the token, or -1
     */
    public long fencingToken() {
        return fencingToken;
    }
}
