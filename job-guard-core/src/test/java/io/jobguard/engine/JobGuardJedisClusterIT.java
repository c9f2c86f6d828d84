package io.jobguard.engine;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** The engine contract on a 3-master Redis Cluster through Jedis. */
@WithRedis
class JobGuardJedisClusterIT extends JobGuardContract {

    private final JedisConnectionFactory connectionFactory;

    JobGuardJedisClusterIT(RedisClusterProcess cluster) {
        this.connectionFactory = cluster.jedisConnectionFactory();
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
