package io.jobguard.batch;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch contract on a 3-master Redis Cluster, default mode: one hash tag (one slot) per namespace. */
@WithRedis
class BatchLocksClusterIT extends BatchLocksContract {

    private final RedisClusterProcess cluster;
    private final LettuceConnectionFactory connectionFactory;

    BatchLocksClusterIT(RedisClusterProcess cluster) {
        this.cluster = cluster;
        this.connectionFactory = cluster.connectionFactory();
    }

    @Override
    protected RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @Override
    protected void deleteAllKeys() {
        cluster.flushAll();
    }

    @Override
    protected void closeConnections() {
        connectionFactory.destroy();
    }

    @Test
    void everyKeyOfANamespaceSitsOnOneMaster() {
        try (BatchLease lease = node("a").tryAcquire(NS, keys(0, 2000), Duration.ofSeconds(30)).orElseThrow()) {
            assertThat(lease.keyCount()).isEqualTo(2000);
            assertThat(cluster.masters()).filteredOn(m -> ((Long) m.call("DBSIZE")) > 0).hasSize(1);
        }
    }
}
