package io.jobguard.spring.boot;

import io.jobguard.GuardType;

import java.time.Duration;

/**
 * Overrides for one job, bound from {@code jobguard.jobs.<name>.*}; unset values keep the annotation's.
 */
public class JobOverrideProperties {

    /** What happens to fire times nobody started (issue 15); unset: no recovery unless a job sets one. */
    private io.jobguard.MisfirePolicy misfirePolicy;

    /** How old a missed fire time may be and still be run or reported (default 1 hour). */
    private Duration catchUpWindow;

    /** The most missed fire times RUN_ALL runs at once (default 10). */
    private Integer catchUpMax;

    /** What happens to a run that started and never completed; unset: no recovery unless a job sets one. */
    private io.jobguard.Delivery delivery;

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
    /**
     * Returns the misfire policy (issue 15).
     *
     * @return the policy, or null when unset
     */
    public io.jobguard.MisfirePolicy getMisfirePolicy() {
        return misfirePolicy;
    }

    /**
     * Sets the misfire policy.
     *
     * @param misfirePolicy the policy
     */
    public void setMisfirePolicy(io.jobguard.MisfirePolicy misfirePolicy) {
        this.misfirePolicy = misfirePolicy;
    }

    /**
     * Returns the catch-up window.
     *
     * @return the window, or null when unset
     */
    public Duration getCatchUpWindow() {
        return catchUpWindow;
    }

    /**
     * Sets the catch-up window.
     *
     * @param catchUpWindow the window
     */
    public void setCatchUpWindow(Duration catchUpWindow) {
        this.catchUpWindow = catchUpWindow;
    }

    /**
     * Returns the catch-up maximum.
     *
     * @return the maximum, or null when unset
     */
    public Integer getCatchUpMax() {
        return catchUpMax;
    }

    /**
     * Sets the catch-up maximum.
     *
     * @param catchUpMax the maximum
     */
    public void setCatchUpMax(Integer catchUpMax) {
        this.catchUpMax = catchUpMax;
    }

    /**
     * Returns the delivery of runs that died (issue 15).
     *
     * @return the delivery, or null when unset
     */
    public io.jobguard.Delivery getDelivery() {
        return delivery;
    }

    /**
     * Sets the delivery of runs that died.
     *
     * @param delivery the delivery
     */
    public void setDelivery(io.jobguard.Delivery delivery) {
        this.delivery = delivery;
    }
}
