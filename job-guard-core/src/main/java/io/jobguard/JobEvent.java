package io.jobguard;

import java.time.Duration;
import java.time.Instant;

/**
 * What happened to one firing of a guarded job on this node, reported once per firing to every
 * {@link JobGuardListener}.
 *
 * @param namespace       the namespace
 * @param job             the job name
 * @param nominalFireTime the fire time the schedule designated
 * @param nodeId          this node
 * @param outcome         the outcome
 * @param acquireTime     how long deciding took (including any WAIT)
 * @param runTime         how long the body ran ({@link Duration#ZERO} when it did not start)
 * @param fencingToken    the lease's fencing token, or -1 when no lease was held
 * @param failure         what the body or the store threw, or null
 * @param attempt         the fire time's attempt this firing was (1 for its first run; 1 when nothing ran)
 */
public record JobEvent(String namespace, String job, Instant nominalFireTime, String nodeId, RunOutcome outcome,
                       Duration acquireTime, Duration runTime, long fencingToken, Throwable failure, int attempt) {

    /**
     * An event of a first attempt, or of a firing that ran nothing.
     *
     * @param namespace       the namespace
     * @param job             the job name
     * @param nominalFireTime the fire time the schedule designated
     * @param nodeId          this node
     * @param outcome         the outcome
     * @param acquireTime     how long deciding took (including any WAIT)
     * @param runTime         how long the body ran ({@link Duration#ZERO} when it did not start)
     * @param fencingToken    the lease's fencing token, or -1 when no lease was held
     * @param failure         what the body or the store threw, or null
     */
    public JobEvent(String namespace, String job, Instant nominalFireTime, String nodeId, RunOutcome outcome,
                    Duration acquireTime, Duration runTime, long fencingToken, Throwable failure) {
        this(namespace, job, nominalFireTime, nodeId, outcome, acquireTime, runTime, fencingToken, failure, 1);
    }
}
