package io.jobguard.spring.observation;

import io.jobguard.RunOutcome;
import io.micrometer.observation.Observation;

import java.time.Instant;
import java.util.Objects;

/**
 * What the {@code jobguard.run} observation of one guarded firing knows: the job, its guard type,
 * the nominal fire time, this node, and once decided, the outcome and the fencing token.
 */
public final class RunObservationContext extends Observation.Context {

    private final String job;
    private final String type;
    private final Instant nominalFireTime;
    private final String node;
    private volatile RunOutcome outcome;
    private volatile long fencingToken = -1;

    /**
     * Creates the context of one firing.
     *
     * @param job             the job name
     * @param type            the guard type (RETURN or WAIT)
     * @param nominalFireTime the nominal fire time
     * @param node            this node's id
     */
    public RunObservationContext(String job, String type, Instant nominalFireTime, String node) {
        this.job = Objects.requireNonNull(job, "job");
        this.type = Objects.requireNonNull(type, "type");
        this.nominalFireTime = Objects.requireNonNull(nominalFireTime, "nominalFireTime");
        this.node = Objects.requireNonNull(node, "node");
    }

    /** @return the job name */
    public String job() {
        return job;
    }

    /** @return the guard type */
    public String type() {
        return type;
    }

    /** @return the nominal fire time */
    public Instant nominalFireTime() {
        return nominalFireTime;
    }

    /** @return this node's id */
    public String node() {
        return node;
    }

    /** @return the outcome, or null while undecided */
    public RunOutcome outcome() {
        return outcome;
    }

    /**
     * Records the outcome.
     *
     * @param outcome the outcome
     */
    public void outcome(RunOutcome outcome) {
        this.outcome = outcome;
    }

    /** @return the fencing token of the lease, or -1 when none was taken */
    public long fencingToken() {
        return fencingToken;
    }

    /**
     * Records the fencing token of the lease taken.
     *
     * @param fencingToken the token
     */
    public void fencingToken(long fencingToken) {
        this.fencingToken = fencingToken;
    }
}
