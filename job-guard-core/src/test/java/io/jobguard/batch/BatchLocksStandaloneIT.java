package io.jobguard.batch;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The batch contract on a standalone Redis. */
@WithRedis
class BatchLocksStandaloneIT extends BatchLocksContract {

    private final RedisServerProcess server;
    private final LettuceConnectionFactory connectionFactory;

    BatchLocksStandaloneIT(RedisServerProcess server) {
        this.server = server;
        this.connectionFactory = server.connectionFactory();
    }

    @Override
    protected RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @Override
    protected void deleteAllKeys() {
        server.flushAll();
    }

    @Override
    protected void closeConnections() {
        connectionFactory.destroy();
    }
}
