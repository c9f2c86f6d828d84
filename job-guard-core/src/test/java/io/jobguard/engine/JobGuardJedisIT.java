package io.jobguard.engine;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** The engine contract on a standalone Redis through Jedis: nothing in the store depends on Lettuce. */
@WithRedis
class JobGuardJedisIT extends JobGuardContract {

    private final JedisConnectionFactory connectionFactory;

    JobGuardJedisIT(RedisServerProcess server) {
        this.connectionFactory = server.jedisConnectionFactory();
    }

    @Override
    protected RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @AfterEach
    void closeConnections() {
        connectionFactory.destroy();
    }
}
