package io.jobguard.shedlock;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The ShedLock provider contract on a 3-master Redis Cluster: each lock is one key, in its own slot. */
@WithRedis
class JobGuardLockProviderClusterIT extends JobGuardLockProviderContract {

    private final LettuceConnectionFactory connectionFactory;

    JobGuardLockProviderClusterIT(RedisClusterProcess cluster) {
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
