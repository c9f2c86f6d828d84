package io.jobguard.shedlock;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

/** The ShedLock provider contract on a standalone Redis. */
@WithRedis
class JobGuardLockProviderIT extends JobGuardLockProviderContract {

    private final LettuceConnectionFactory connectionFactory;

    JobGuardLockProviderIT(RedisServerProcess redis) {
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
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
