package io.jobguard.testing;

import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A standalone Redis that a test may use but not control: no stop, pause or restart.
 *
 * <p>Injected by {@link RedisExtension}: it is the server named by {@code JOBGUARD_TEST_REDIS_URL} when that
 * environment variable is set ({@link ExternalRedis}, never flushed by the harness, so tests should use
 * their own key prefixes), otherwise the test class's harness-owned server, emptied before each test.
 */
public interface RedisEndpoint {

    /** Command timeout of the factories from {@link #connectionFactory()}: short, so a hang fails a test fast. */
    Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The host to connect to.
     *
     * @return the host name or address
     */
    String host();

    /**
     * The port to connect to.
     *
     * @return the TCP port
     */
    int port();

    /**
     * A Redis URI for clients configured by URL (Lettuce, Redisson).
     *
     * @return for example {@code redis://127.0.0.1:6379}
     */
    String uri();

    /**
     * A new, started connection factory with {@link #DEFAULT_COMMAND_TIMEOUT}; the caller destroys it.
     *
     * @return the started factory
     */
    default LettuceConnectionFactory connectionFactory() {
        return connectionFactory(DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * A new, started connection factory; the caller destroys it.
     *
     * @param commandTimeout how long a command may take before it fails with a timeout
     * @return the started factory
     */
    LettuceConnectionFactory connectionFactory(Duration commandTimeout);
}
