package io.jobguard.batch;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch contract on a 3-master Redis Cluster with spread mode off (the default there is spread):
 * one hash tag (one slot) per namespace.
 */
@WithRedis
class BatchLocksClusterIT extends BatchLocksContract {

    private final RedisClusterProcess cluster;
    private final LettuceConnectionFactory connectionFactory;

    BatchLocksClusterIT(RedisClusterProcess cluster) {
        this.cluster = cluster;
        this.connectionFactory = cluster.connectionFactory();
    }

    @Override
    protected BatchLockConfig.Builder config(String nodeId) {
        return super.config(nodeId).spread(false);
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
            // the layout's record (jgtest:batch-mode) may sit on any master: count the namespace's keys only
            assertThat(cluster.masters()).filteredOn(m -> !((List<?>) m.call("KEYS", "*" + NS + "~batch*")).isEmpty())
                    .hasSize(1);
        }
    }
}
