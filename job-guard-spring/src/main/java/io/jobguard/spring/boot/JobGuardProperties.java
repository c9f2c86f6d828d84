package io.jobguard.spring.boot;

import io.jobguard.StoreFailurePolicy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code jobguard.*} properties of the Spring Boot auto-configuration. Durations accept
 * {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d} or ISO-8601; a value that cannot
 * be bound fails startup naming the property.
 */
@ConfigurationProperties("jobguard")
public class JobGuardProperties implements Validator {

    /** Whether job-guard is active. When false, @ClusterSingleton methods run unguarded on every node. */
    private boolean enabled = true;

    /** Where leases live. */
    private Store store = Store.REDIS;

    /** Isolates applications sharing one Redis. Defaults to spring.application.name, else "default". */
    private String namespace;

    /** This node's identity, recorded with every lease. Defaults to hostname:pid. */
    private String nodeId;

    /** First segment of every Redis key. */
    private String keyPrefix = "jobguard";

    /** Lease of guarded jobs whose @ClusterSingleton sets none. */
    private Duration defaultLease = Duration.ofMinutes(5);

    /** How long a WAIT job waits for the lease when its @ClusterSingleton sets no waitFor. Defaults to the lease. */
    private Duration defaultWaitFor;

    /**
     * How long a RETURN firing that finds the run lease held by another fire time's run waits for its
     * release before it is skipped as BUSY (0 skips at once). Defaults to 1s, capped at the job's lease.
     */
    private Duration busyGrace;

    /** Largest clock difference between nodes under which each fire time still runs once. */
    private Duration skewTolerance = Duration.ofMinutes(5);

    /** What a firing does when Redis cannot be reached: SKIP it (fail closed) or RUN it unguarded. */
    private StoreFailurePolicy onStoreFailure = StoreFailurePolicy.SKIP;

    /** Whether run leases are renewed while the run is alive (a job's keepAlive = false always wins). */
    private boolean keepAlive = true;

    /** Whether a run whose lease was lost is interrupted. */
    private boolean interruptOnLeaseLost;

    /** How many recent fire times per job are kept (shown by the actuator endpoint). */
    private int historySize = 20;

    /** How often this node's clock is compared with Redis TIME (jobguard.clock.skew gauge, WARN log). */
    private Duration clockSkewCheckInterval = Duration.ofMinutes(1);

    /**
     * How often this node publishes its job schedules to Redis and compares them with the other nodes' (WARN when
     * they differ, e.g. a cron in another zone); a node counts for three intervals after it last published.
     */
    private Duration scheduleCheckInterval = Duration.ofMinutes(1);

    /** What happens to fire times nobody started (issue 15); unset: no recovery unless a job sets one. */
    private io.jobguard.MisfirePolicy misfirePolicy;

    /** How old a missed fire time may be and still be run or reported (default 1 hour). */
    private Duration catchUpWindow;

    /** The most missed fire times RUN_ALL runs at once (default 10). */
    private Integer catchUpMax;

    /** What happens to a run that started and never completed; unset: no recovery unless a job sets one. */
    private io.jobguard.Delivery delivery;

    /** Per-job overrides, by job name; use brackets for names with dots: jobguard.jobs[Reports.nightly].lease=10m. */
    private Map<String, JobOverrideProperties> jobs = new LinkedHashMap<>();

    /** The actuator endpoint. */
    @NestedConfigurationProperty
    private final JobGuardActuatorProperties actuator = new JobGuardActuatorProperties();

    /** Spring transactions inside guarded runs. */
    @NestedConfigurationProperty
    private final JobGuardTransactionProperties transactions = new JobGuardTransactionProperties();

    /**
     * What happens when a {@code @ClusterSingleton} method's schedule does not go through job-guard's
     * scheduler (a SchedulingConfigurer or wrapper bypasses it): {@code fail} the startup or {@code warn}.
     */
    private String schedulerBypass = "fail";

    /** Where leases live. */
    public enum Store {
        /** The Redis store on the application's RedisConnectionFactory. */
        REDIS,
        /**
         * A store inside this JVM ({@code InMemoryLeaseStore}): for tests and single-instance apps
         * only, never chosen unless set explicitly. No batch locks.
         */
        IN_MEMORY,
        /**
         * Leases in the application's ShedLock {@code LockProvider} bean ({@code ShedLockLeaseStore}):
         * no fencing tokens, so no batch locks.
         */
        SHEDLOCK
    }

    /**
     * Returns whether job-guard is active.
     *
     * @return whether job-guard is active
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether job-guard is active.
     *
     * @param enabled whether job-guard is active
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Returns the store type.
     *
     * @return the store type
     */
    public Store getStore() {
        return store;
    }

    /**
     * Sets the store type.
     *
     * @param store the store type
     */
    public void setStore(Store store) {
        this.store = store;
    }

    /**
     * Returns the namespace.
     *
     * @return the namespace, or null for the default
     */
    public String getNamespace() {
        return namespace;
    }

    /**
     * Sets the namespace.
     *
     * @param namespace the namespace
     */
    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    /**
     * Returns the node id.
     *
     * @return the node id, or null for the default
     */
    public String getNodeId() {
        return nodeId;
    }

    /**
     * Sets the node id.
     *
     * @param nodeId the node id
     */
    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    /**
     * Returns the key prefix.
     *
     * @return the key prefix
     */
    public String getKeyPrefix() {
        return keyPrefix;
    }

    /**
     * Sets the key prefix.
     *
     * @param keyPrefix the key prefix
     */
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    /**
     * Returns the default lease.
     *
     * @return the default lease
     */
    public Duration getDefaultLease() {
        return defaultLease;
    }

    /**
     * Sets the default lease.
     *
     * @param defaultLease the default lease
     */
    public void setDefaultLease(Duration defaultLease) {
        this.defaultLease = defaultLease;
    }

    /**
     * Returns the default wait bound.
     *
     * @return the default wait bound, or null for the lease
     */
    public Duration getDefaultWaitFor() {
        return defaultWaitFor;
    }

    /**
     * Sets the default wait bound.
     *
     * @param defaultWaitFor the default wait bound
     */
    public void setDefaultWaitFor(Duration defaultWaitFor) {
        this.defaultWaitFor = defaultWaitFor;
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

    /**
     * Returns the busy grace of RETURN jobs.
     *
     * @return the grace, or null for the default (1 second, capped at the lease)
     */
    public Duration getBusyGrace() {
        return busyGrace;
    }

    /**
     * Sets the busy grace of RETURN jobs.
     *
     * @param busyGrace the grace
     */
    public void setBusyGrace(Duration busyGrace) {
        this.busyGrace = busyGrace;
    }

    /**
     * Returns the skew tolerance.
     *
     * @return the skew tolerance
     */
    public Duration getSkewTolerance() {
        return skewTolerance;
    }

    /**
     * Sets the skew tolerance.
     *
     * @param skewTolerance the skew tolerance
     */
    public void setSkewTolerance(Duration skewTolerance) {
        this.skewTolerance = skewTolerance;
    }

    /**
     * Returns the store failure policy.
     *
     * @return the store failure policy
     */
    public StoreFailurePolicy getOnStoreFailure() {
        return onStoreFailure;
    }

    /**
     * Sets the store failure policy.
     *
     * @param onStoreFailure the store failure policy
     */
    public void setOnStoreFailure(StoreFailurePolicy onStoreFailure) {
        this.onStoreFailure = onStoreFailure;
    }

    /**
     * Returns whether leases are kept alive.
     *
     * @return whether leases are kept alive
     */
    public boolean isKeepAlive() {
        return keepAlive;
    }

    /**
     * Sets whether leases are kept alive.
     *
     * @param keepAlive whether leases are kept alive
     */
    public void setKeepAlive(boolean keepAlive) {
        this.keepAlive = keepAlive;
    }

    /**
     * Returns whether runs that lost their lease are interrupted.
     *
     * @return whether to interrupt
     */
    public boolean isInterruptOnLeaseLost() {
        return interruptOnLeaseLost;
    }

    /**
     * Sets whether runs that lost their lease are interrupted.
     *
     * @param interruptOnLeaseLost whether to interrupt
     */
    public void setInterruptOnLeaseLost(boolean interruptOnLeaseLost) {
        this.interruptOnLeaseLost = interruptOnLeaseLost;
    }

    /**
     * Returns the history size.
     *
     * @return recent fire times kept per job
     */
    public int getHistorySize() {
        return historySize;
    }

    /**
     * Sets the history size.
     *
     * @param historySize recent fire times kept per job
     */
    public void setHistorySize(int historySize) {
        this.historySize = historySize;
    }

    /**
     * Returns the clock-skew check interval.
     *
     * @return the interval
     */
    public Duration getClockSkewCheckInterval() {
        return clockSkewCheckInterval;
    }

    /**
     * Sets the clock-skew check interval.
     *
     * @param clockSkewCheckInterval the interval
     */
    public void setClockSkewCheckInterval(Duration clockSkewCheckInterval) {
        this.clockSkewCheckInterval = clockSkewCheckInterval;
    }

    /**
     * Returns the schedule check interval.
     *
     * @return the interval
     */
    public Duration getScheduleCheckInterval() {
        return scheduleCheckInterval;
    }

    /**
     * Sets the schedule check interval.
     *
     * @param scheduleCheckInterval the interval
     */
    public void setScheduleCheckInterval(Duration scheduleCheckInterval) {
        this.scheduleCheckInterval = scheduleCheckInterval;
    }

    /**
     * Returns the per-job overrides.
     *
     * @return overrides by job name
     */
    public Map<String, JobOverrideProperties> getJobs() {
        return jobs;
    }

    /**
     * Sets the per-job overrides.
     *
     * @param jobs overrides by job name
     */
    public void setJobs(Map<String, JobOverrideProperties> jobs) {
        this.jobs = jobs;
    }

    /**
     * Returns the actuator settings.
     *
     * @return the actuator settings
     */
    public JobGuardActuatorProperties getActuator() {
        return actuator;
    }

    /**
     * Whether {@link #validate} checks the given type (Spring Boot validates properties that
     * implement {@link Validator} when it binds them, at startup).
     *
     * @param type the type to check
     * @return whether it is this class
     */
    @Override
    public boolean supports(Class<?> type) {
        return JobGuardProperties.class.isAssignableFrom(type);
    }

    /**
     * Returns what happens when a guarded schedule bypasses job-guard's scheduler.
     *
     * @return {@code fail} or {@code warn}
     */
    public String getSchedulerBypass() {
        return schedulerBypass;
    }

    /**
     * Sets what happens when a guarded schedule bypasses job-guard's scheduler.
     *
     * @param schedulerBypass {@code fail} or {@code warn}
     */
    public void setSchedulerBypass(String schedulerBypass) {
        this.schedulerBypass = schedulerBypass;
    }

    /**
     * Checks the bound values at startup: names by job-guard's name rules, durations and counts by the
     * ranges the core accepts; each error names its {@code jobguard.*} property.
     *
     * @param target the bound properties
     * @param errors where the errors go
     */
    @Override
    public void validate(Object target, Errors errors) {
        JobGuardPropertiesValidator.validate((JobGuardProperties) target, errors);
    }

    /**
     * Returns the transaction settings.
     *
     * @return the transaction settings
     */
    public JobGuardTransactionProperties getTransactions() {
        return transactions;
    }
}
