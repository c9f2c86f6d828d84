package io.jobguard.spring.boot;

import io.jobguard.GuardType;

import java.time.Duration;

/**
 * Overrides for one job, bound from {@code jobguard.jobs.<name>.*}; unset values keep the annotation's.
 */
public class JobOverrideProperties {

    /** The job's lease. */
    private Duration lease;

    /** How long a WAIT firing waits for the lease. */
    private Duration waitFor;

    /** How long a RETURN firing waits for a run lease held by another fire time's run before it is skipped. */
    private Duration busyGrace;

    /** RETURN or WAIT. */
    private GuardType type;

    /** Whether the lease is renewed while the run is alive. */
    private Boolean keepAlive;

    /**
     * Returns the lease.
     *
     * @return the lease, or null
     */
    public Duration getLease() {
        return lease;
    }

    /**
     * Sets the lease.
     *
     * @param lease the lease
     */
    public void setLease(Duration lease) {
        this.lease = lease;
    }

    /**
     * Returns the wait bound.
     *
     * @return the wait bound, or null
     */
    public Duration getWaitFor() {
        return waitFor;
    }

    /**
     * Sets the wait bound.
     *
     * @param waitFor the wait bound
     */
    public void setWaitFor(Duration waitFor) {
        this.waitFor = waitFor;
    }

    /**
     * Returns the busy grace.
     *
     * @return the busy grace, or null
     */
    public Duration getBusyGrace() {
        return busyGrace;
    }

    /**
     * Sets the busy grace.
     *
     * @param busyGrace the busy grace
     */
    public void setBusyGrace(Duration busyGrace) {
        this.busyGrace = busyGrace;
    }

    /**
     * Returns the guard type.
     *
     * @return the guard type, or null
     */
    public GuardType getType() {
        return type;
    }

    /**
     * Sets the guard type.
     *
     * @param type the guard type
     */
    public void setType(GuardType type) {
        this.type = type;
    }

    /**
     * Returns the keep-alive override.
     *
     * @return the keep-alive override, or null
     */
    public Boolean getKeepAlive() {
        return keepAlive;
    }

    /**
     * Sets the keep-alive override.
     *
     * @param keepAlive the keep-alive override
     */
    public void setKeepAlive(Boolean keepAlive) {
        this.keepAlive = keepAlive;
    }
}
