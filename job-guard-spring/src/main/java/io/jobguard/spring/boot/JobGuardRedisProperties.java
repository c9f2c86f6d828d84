package io.jobguard.spring.boot;

import io.jobguard.redis.DurableAcquire;
import io.jobguard.redis.RedisEvictionCheck;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * {@code jobguard.redis.*}: how job-guard protects itself against Redis losing or evicting its
 * keys and how fast it reconnects (issue 16).
 */
@ConfigurationProperties("jobguard.redis")
public class JobGuardRedisProperties {

    /**
     * What the startup check of Redis' maxmemory-policy does when the policy may evict any key under
     * a memory limit (allkeys-*): fail (refuse to start), warn, or off (no check). volatile-* policies
     * and allkeys-* without a limit are always a WARN.
     */
    private RedisEvictionCheck.Mode evictionCheck = RedisEvictionCheck.Mode.FAIL;

    /**
     * Longest pause between Lettuce's reconnect attempts after Redis went away (Boot's Lettuce
     * client only; Lettuce's own default grows to 30 s, so the first run after Redis returns could
     * come seconds late). Zero leaves Lettuce's default.
     */
    private Duration reconnectDelayMax = Duration.ofMillis(500);

    /** Durable acquire: wait for replicas to acknowledge each run lease before the run starts. */
    private final DurableAcquireProperties durableAcquire = new DurableAcquireProperties();

    /**
     * Returns the eviction check mode.
     *
     * @return FAIL, WARN or OFF
     */
    public RedisEvictionCheck.Mode getEvictionCheck() {
        return evictionCheck;
    }

    /**
     * Sets the eviction check mode.
     *
     * @param evictionCheck FAIL, WARN or OFF
     */
    public void setEvictionCheck(RedisEvictionCheck.Mode evictionCheck) {
        this.evictionCheck = evictionCheck;
    }

    /**
     * Returns the longest reconnect pause.
     *
     * @return the pause, zero for Lettuce's default
     */
    public Duration getReconnectDelayMax() {
        return reconnectDelayMax;
    }

    /**
     * Sets the longest reconnect pause.
     *
     * @param reconnectDelayMax the pause, zero for Lettuce's default
     */
    public void setReconnectDelayMax(Duration reconnectDelayMax) {
        this.reconnectDelayMax = reconnectDelayMax;
    }

    /**
     * Returns the durable acquire settings.
     *
     * @return the durable acquire settings
     */
    public DurableAcquireProperties getDurableAcquire() {
        return durableAcquire;
    }

    /**
     * The durable acquire setting of the store.
     *
     * @return the setting
     * @throws IllegalStateException naming the property when a value is invalid
     */
    DurableAcquire durableAcquire() {
        try {
            return new DurableAcquire(durableAcquire.replicas, durableAcquire.timeout);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalStateException("invalid jobguard.redis.durable-acquire.*: " + e.getMessage(), e);
        }
    }

    /** {@code jobguard.redis.durable-acquire.*}. */
    public static class DurableAcquireProperties {

        /**
         * How many replicas must acknowledge a run lease (Redis WAIT) before the run starts; a firing
         * they do not acknowledge in time is refused as STORE_ERROR. Zero (default) turns it off.
         * Not available on Redis Cluster.
         */
        private int replicas;

        /** How long to wait for the replicas. */
        private Duration timeout = Duration.ofSeconds(1);

        /** Creates the defaults (off). */
        public DurableAcquireProperties() {
        }

        /**
         * Returns the replicas.
         *
         * @return how many replicas must acknowledge
         */
        public int getReplicas() {
            return replicas;
        }

        /**
         * Sets the replicas.
         *
         * @param replicas how many replicas must acknowledge, zero for off
         */
        public void setReplicas(int replicas) {
            this.replicas = replicas;
        }

        /**
         * Returns the timeout.
         *
         * @return how long to wait
         */
        public Duration getTimeout() {
            return timeout;
        }

        /**
         * Sets the timeout.
         *
         * @param timeout how long to wait
         */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }
}
