package io.jobguard.engine;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The engine contract on a 3-master Redis Cluster: every key of a job shares one hash slot. */
@WithRedis
class JobGuardClusterIT extends JobGuardContract {

    private final LettuceConnectionFactory connectionFactory;

    JobGuardClusterIT(RedisClusterProcess cluster) {
        this.connectionFactory = cluster.connectionFactory();
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
