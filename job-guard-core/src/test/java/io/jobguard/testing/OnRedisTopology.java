package io.jobguard.testing;

import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Base of a contract test that runs on one {@link RedisTopology} per test instance (a nested class of a
 * {@link WithRedis} suite passes the topology it builds from the injected server).
 *
 * <p>Guarantees: the topology is closed after every test, after every {@code @AfterEach} method of the
 * subclasses (JUnit runs a superclass's {@code @AfterEach} methods last), so what those methods close
 * still has its connections.
 */
public abstract class OnRedisTopology {

    private final RedisTopology topology;

    /**
     * Takes the topology of this test instance; it is closed after the test.
     *
     * @param topology the topology, with a started factory
     */
    protected OnRedisTopology(RedisTopology topology) {
        this.topology = topology;
    }

    /**
     * The topology under test.
     *
     * @return the topology
     */
    protected final RedisTopology topology() {
        return topology;
    }

    /**
     * The connections of the Redis under test.
     *
     * @return the topology's started connection factory
     */
    protected final RedisConnectionFactory connectionFactory() {
        return topology.connectionFactory();
    }

    /** Destroys the topology's connection factory, after every subclass's {@code @AfterEach}. */
    @AfterEach
    protected final void closeTopology() {
        topology.close();
    }
}
