package io.jobguard.internal.options;

import java.util.Locale;

/**
 * The attributes of {@link io.jobguard.ClusterSingleton @ClusterSingleton}, one constant per annotation
 * element and named after it: the keys every source of a job's options answers for. Quartz's
 * {@code JobDataMap} entry of an attribute is {@code jobguard.<attribute>}; Spring's property is its
 * kebab-case name.
 */
public enum JobAttribute {
    /** The cluster-wide job name. */
    NAME("name", false),
    /** RETURN or WAIT. */
    TYPE("type", false),
    /** The run lease. */
    LEASE("lease", false),
    /** How long a WAIT firing waits. */
    WAIT_FOR("waitFor", false),
    /** How long a RETURN firing waits for a busy run lease. */
    BUSY_GRACE("busyGrace", false),
    /** Whether the lease is renewed while the run is alive. */
    KEEP_ALIVE("keepAlive", false),
    /** What happens to fire times nobody started. */
    MISFIRE_POLICY("misfirePolicy", true),
    /** What happens to runs that started and never completed. */
    DELIVERY("delivery", true),
    /** How old a missed fire time may be and still count. */
    CATCH_UP_WINDOW("catchUpWindow", true),
    /** The most missed fire times RUN_ALL runs at once. */
    CATCH_UP_MAX("catchUpMax", true),
    /** How many attempts a fire time whose runs throw gets in all. */
    ATTEMPTS("attempts", false),
    /** The delay before a failed fire time's second attempt. */
    RETRY_BACKOFF("retryBackoff", false),
    /** How much each later retry delay grows. */
    RETRY_MULTIPLIER("retryMultiplier", false),
    /** The longest retry delay. */
    RETRY_MAX_BACKOFF("retryMaxBackoff", false),
    /** The share of a retry delay added or taken at random. */
    RETRY_JITTER("retryJitter", false),
    /** The failures that retry. */
    RETRY_ON("retryOn", false),
    /** The failures that never retry. */
    NO_RETRY_ON("noRetryOn", false),
    /** The most history entries kept for the job. */
    HISTORY_SIZE("historySize", false),
    /** How long the job's history entries are kept. */
    HISTORY_RETENTION("historyRetention", false);

    private final String element;
    private final boolean recovery;

    JobAttribute(String element, boolean recovery) {
        this.element = element;
        this.recovery = recovery;
    }

    /**
     * The annotation element's name, for example {@code catchUpWindow}.
     *
     * @return the element name
     */
    public String element() {
        return element;
    }

    /**
     * The property name, for example {@code catch-up-window}.
     *
     * @return the kebab-case name
     */
    public String kebab() {
        return element.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    /**
     * Whether the attribute belongs to the job's recovery of lost fire times.
     *
     * @return {@code true} for misfire policy, delivery, catch-up window and catch-up maximum
     */
    public boolean recovery() {
        return recovery;
    }
}
