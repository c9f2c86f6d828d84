package io.jobguard.batch;

import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.WithRedis;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The batch contract through Redis Sentinel (spring-data-redis {@code RedisSentinelConfiguration}). */
@WithRedis
class BatchLocksSentinelIT extends BatchLocksContract {

    private final RedisSentinelProcess sentinel;
    private final LettuceConnectionFactory connectionFactory;

    BatchLocksSentinelIT(RedisSentinelProcess sentinel) {
        this.sentinel = sentinel;
        this.connectionFactory = sentinel.connectionFactory();
    }

    @Override
    protected RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @Override
    protected void deleteAllKeys() {
        sentinel.flushAll();
    }

    @Override
    protected void closeConnections() {
        connectionFactory.destroy();
    }
}
