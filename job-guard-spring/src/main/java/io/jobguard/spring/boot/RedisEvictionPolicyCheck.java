package io.jobguard.spring.boot;

import io.jobguard.redis.RedisEvictionCheck;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Runs {@link RedisEvictionCheck} once every singleton exists, so that a Redis that may evict
 * job-guard's keys fails the context at startup (or warns, per {@code jobguard.redis.eviction-check}).
 */
final class RedisEvictionPolicyCheck implements SmartInitializingSingleton {

    private final RedisConnectionFactory connectionFactory;
    private final RedisEvictionCheck.Mode mode;

    RedisEvictionPolicyCheck(RedisConnectionFactory connectionFactory, RedisEvictionCheck.Mode mode) {
        this.connectionFactory = connectionFactory;
        this.mode = mode;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (connectionFactory == null) {
            // a context without Redis (jobguard.store=in-memory, another store bean): nothing can evict job-guard's keys
            return;
        }
        RedisEvictionCheck.check(connectionFactory, mode, "jobguard.redis.eviction-check=warn");
    }
}
