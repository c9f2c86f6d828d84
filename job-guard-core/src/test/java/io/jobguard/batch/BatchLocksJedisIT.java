package io.jobguard.batch;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** The batch contract on a standalone Redis through Jedis. */
@WithRedis
class BatchLocksJedisIT extends BatchLocksContract {

    private final RedisServerProcess server;
    private final JedisConnectionFactory connectionFactory;

    BatchLocksJedisIT(RedisServerProcess server) {
        this.server = server;
        this.connectionFactory = server.jedisConnectionFactory();
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
