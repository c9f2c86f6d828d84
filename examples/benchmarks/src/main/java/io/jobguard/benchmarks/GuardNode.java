package io.jobguard.benchmarks;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.redis.RedisLeaseStore;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

/**
 * One simulated application instance of job-guard: its own connection factory (so its own Lettuce
 * connection, as a separate JVM has), its own store and its own {@link JobGuard} with its own node id.
 * The fleet and capacity benchmarks build their nodes from it, so both measure the same node.
 */
final class GuardNode implements AutoCloseable {

    private final LettuceConnectionFactory factory;
    private final RedisLeaseStore store;
    private final JobGuard guard;

    /**
     * Connects a node.
     *
     * @param redis         a standalone or a cluster configuration
     * @param namespace     the store's namespace (the fleet's: every node of one fleet uses the same)
     * @param nodeId        this node's id
     * @param skewTolerance the guard's skew tolerance: it keeps each fire-time marker alive, so it must cover
     *                      how far apart the simulated nodes walk the fire times
     */
    GuardNode(RedisConfiguration redis, String namespace, String nodeId, Duration skewTolerance) {
        this(redis, namespace, nodeId, skewTolerance, true);
    }

    /**
     * Connects a node with the fleet spread on or off ({@link JobGuardConfig#spread()}: it applies only to the jobs a
     * node declares).
     */
    GuardNode(RedisConfiguration redis, String namespace, String nodeId, Duration skewTolerance, boolean spread) {
        factory = BenchRedis.springFactory(redis);
        store = RedisLeaseStore.create(factory, namespace);
        guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(nodeId).build())
                .skewTolerance(skewTolerance).spread(spread).build());
    }

    JobGuard guard() {
        return guard;
    }

    @Override
    public void close() {
        guard.close();
        store.close();
        factory.destroy();
    }
}
