package io.jobguard.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jobguard.batch.*}: settings of the auto-configured batch locks. Defaults are those of
 * {@code BatchLockConfig.ofDefaults()}.
 */
@ConfigurationProperties("jobguard.batch")
public class JobGuardBatchProperties implements Validator {

    /** Whether a BatchLocks bean and the @BatchLocked advisor are auto-configured. */
    private boolean enabled = true;

    /** Keys per Lua script call; bounds how long one call blocks Redis. */
    private int chunkSize = 1000;

    /** Most keys in one batch; larger batches are rejected before anything is sent. */
    private int maxKeys = 100_000;

    /**
     * Spread each batch namespace over 16 slot-range buckets (all called at once) instead of one hash tag;
     * unset: spread on a Redis Cluster with several masters, one hash tag otherwise.
     */
    private Boolean spread;

    /** WAIT re-tries at least this often even without a release notification. */
    private Duration waitPollInterval = Duration.ofMillis(500);

    /**
     * Batch namespaces the actuator endpoint lists from startup (namespaces this node uses are
     * added as it uses them).
     */
    private List<String> namespaces = new ArrayList<>();

    /** Longest business key, in characters. */
    private int maxKeyLength = 512;

    /** Whether leases from BatchLocks.tryAcquire/acquire are renewed while held (@BatchLocked sets its own). */
    private boolean keepAlive;

    /** Lease of @BatchLocked methods that set none. */
    private Duration defaultLease = Duration.ofMinutes(5);

    /** How long a WAIT @BatchLocked method waits when it sets no waitFor. Defaults to its lease. */
    private Duration defaultWaitFor;

    /** Creates the properties with their defaults. */
    public JobGuardBatchProperties() {
    }

    /**
     * Returns whether batch locks are auto-configured.
     *
     * @return {@code true} by default
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether batch locks are auto-configured.
     *
     * @param enabled {@code false} to back off
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Returns the chunk size.
     *
     * @return keys per script call
     */
    public int getChunkSize() {
        return chunkSize;
    }

    /**
     * Sets the chunk size.
     *
     * @param chunkSize keys per script call
     */
    public void setChunkSize(int chunkSize) {
        this.chunkSize = chunkSize;
    }

    /**
     * Returns the key limit.
     *
     * @return most keys per batch
     */
    public int getMaxKeys() {
        return maxKeys;
    }

    /**
     * Sets the key limit.
     *
     * @param maxKeys most keys per batch
     */
    public void setMaxKeys(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    /**
     * Returns whether spread mode is on, or null to choose from the topology.
     *
     * @return {@code true} for spread mode, {@code false} for one hash tag, null for the topology's choice
     */
    public Boolean getSpread() {
        return spread;
    }

    /**
     * Sets spread mode.
     *
     * @param spread {@code true} to spread keys over all slots, null to choose from the topology
     */
    public void setSpread(Boolean spread) {
        this.spread = spread;
    }

    /**
     * Returns the WAIT fallback poll interval.
     *
     * @return the interval
     */
    public Duration getWaitPollInterval() {
        return waitPollInterval;
    }

    /**
     * Sets the WAIT fallback poll interval.
     *
     * @param waitPollInterval the interval
     */
    public void setWaitPollInterval(Duration waitPollInterval) {
        this.waitPollInterval = waitPollInterval;
    }

    /**
     * Returns the batch namespaces listed by the actuator from startup.
     *
     * @return the namespaces
     */
    public List<String> getNamespaces() {
        return namespaces;
    }

    /**
     * Sets the batch namespaces listed by the actuator from startup.
     *
     * @param namespaces the namespaces
     */
    public void setNamespaces(List<String> namespaces) {
        this.namespaces = namespaces;
    }

    /**
     * Returns the longest key.
     *
     * @return the maximum length
     */
    public int getMaxKeyLength() {
        return maxKeyLength;
    }

    /**
     * Sets the longest key.
     *
     * @param maxKeyLength the maximum length
     */
    public void setMaxKeyLength(int maxKeyLength) {
        this.maxKeyLength = maxKeyLength;
    }

    /**
     * Returns the keep-alive default of programmatic leases.
     *
     * @return whether they are renewed
     */
    public boolean isKeepAlive() {
        return keepAlive;
    }

    /**
     * Sets the keep-alive default of programmatic leases.
     *
     * @param keepAlive whether they are renewed
     */
    public void setKeepAlive(boolean keepAlive) {
        this.keepAlive = keepAlive;
    }

    /**
     * Returns the default lease of @BatchLocked methods.
     *
     * @return the lease
     */
    public Duration getDefaultLease() {
        return defaultLease;
    }

    /**
     * Sets the default lease of @BatchLocked methods (read by the advisor from the environment).
     *
     * @param defaultLease the lease
     */
    public void setDefaultLease(Duration defaultLease) {
        this.defaultLease = defaultLease;
    }

    /**
     * Returns the default wait bound of @BatchLocked methods.
     *
     * @return the bound, or null for the lease
     */
    public Duration getDefaultWaitFor() {
        return defaultWaitFor;
    }

    /**
     * Sets the default wait bound of @BatchLocked methods (read by the advisor from the environment).
     *
     * @param defaultWaitFor the bound
     */
    public void setDefaultWaitFor(Duration defaultWaitFor) {
        this.defaultWaitFor = defaultWaitFor;
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
        return JobGuardBatchProperties.class.isAssignableFrom(type);
    }

    /**
     * Checks the bound values at startup: names by job-guard's name rules, durations and counts by the
     * ranges the core accepts; each error names its {@code jobguard.batch.*} property.
     *
     * @param target the bound properties
     * @param errors where the errors go
     */
    @Override
    public void validate(Object target, Errors errors) {
        JobGuardPropertiesValidator.validate((JobGuardBatchProperties) target, errors);
    }
}
