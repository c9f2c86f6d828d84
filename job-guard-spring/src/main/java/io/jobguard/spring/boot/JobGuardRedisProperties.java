package io.jobguard.spring.boot;

import io.jobguard.redis.DurableAcquire;
import io.jobguard.redis.RedisEvictionCheck;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code jobguard.redis.*}: how job-guard protects itself against Redis losing or evicting its
 * keys and how fast it reconnects. Immutable once bound; checked by {@link JobGuardPropertiesValidator}
 * at startup.
 *
 * @param evictionCheck     What the startup check of Redis' maxmemory-policy does when the policy may evict any key
 *                          under a memory limit (allkeys-*): fail (refuse to start), warn, or off (no check).
 *                          volatile-* policies and allkeys-* without a limit are always a WARN.
 * @param reconnectDelayMax Longest pause between Lettuce's reconnect attempts after Redis went away (Boot's Lettuce
 *                          client only; Lettuce's own default grows to 30 s, so the first run after Redis returns
 *                          could come seconds late). Zero leaves Lettuce's default.
 * @param durableAcquire    Durable acquire: wait for replicas to acknowledge each run lease before the run starts.
 */
@ConfigurationProperties("jobguard.redis")
public record JobGuardRedisProperties(@DefaultValue("fail") RedisEvictionCheck.Mode evictionCheck,
                                      @DefaultValue("500ms") Duration reconnectDelayMax,
                                      @DefaultValue DurableAcquireProperties durableAcquire)
        implements ValidatedOnBinding {

    /**
     * The durable-acquire settings as the Redis store takes them.
     *
     * @throws IllegalArgumentException naming {@code jobguard.redis.durable-acquire.*} when the core refuses them
     *                                  (checked at binding by {@link JobGuardPropertiesValidator})
     */
    DurableAcquire durableAcquireSettings() {
        try {
            return DurableAcquire.builder().replicas(durableAcquire.replicas()).timeout(durableAcquire.timeout())
                    .build();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("invalid jobguard.redis.durable-acquire.*: " + e.getMessage(), e);
        }
    }

    /**
     * {@code jobguard.redis.durable-acquire.*}.
     *
     * @param replicas How many replicas must acknowledge a run lease (Redis WAIT) before the run starts; a firing
     *                 they do not acknowledge in time is refused as STORE_ERROR. Zero (default) turns it off. Not
     *                 available on Redis Cluster.
     * @param timeout  How long to wait for the replicas.
     */
    public record DurableAcquireProperties(@DefaultValue("0") int replicas, @DefaultValue("1s") Duration timeout) {
    }
}
