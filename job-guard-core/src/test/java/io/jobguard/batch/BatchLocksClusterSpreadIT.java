package io.jobguard.batch;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch contract on a 3-master Redis Cluster in spread mode: keys grouped by slot over every master. */
@WithRedis
class BatchLocksClusterSpreadIT extends BatchLocksContract {

    private final RedisClusterProcess cluster;
    private final LettuceConnectionFactory connectionFactory;

    BatchLocksClusterSpreadIT(RedisClusterProcess cluster) {
        this.cluster = cluster;
        this.connectionFactory = cluster.connectionFactory();
    }

    @Override
    protected BatchLockConfig.Builder config(String nodeId) {
        return super.config(nodeId).spread(true);
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
    void keysSpreadOverEveryMaster() {
        try (BatchLease lease = node("a").tryAcquire(NS, keys(0, 300), Duration.ofSeconds(30)).orElseThrow()) {
            assertThat(lease.keyCount()).isEqualTo(300);
            assertThat(cluster.masters()).allSatisfy(m -> assertThat((Long) m.call("DBSIZE")).isPositive());
        }
    }
}
