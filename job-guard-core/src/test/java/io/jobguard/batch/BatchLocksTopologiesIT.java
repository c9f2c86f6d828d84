package io.jobguard.batch;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.RedisTopology;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch contract ({@link BatchLocksContract}) on every Redis topology, client and, on a Cluster,
 * key mode, one nested class each, plus where a Cluster puts the keys in each mode.
 *
 * <p>The servers belong to this class (see {@code RedisExtension}): each kind is started once, on the
 * first nested class that asks for it, shared by the nested classes that use it (emptied before every
 * test), and stopped when this class finishes. Each test opens its own connection factory and destroys it.
 */
@WithRedis
class BatchLocksTopologiesIT {

    @Nested
    @DisplayName("standalone lettuce")
    class StandaloneLettuce extends BatchLocksContract {

        StandaloneLettuce(RedisServerProcess server) {
            super(RedisTopology.standaloneLettuce(server));
        }
    }

    @Nested
    @DisplayName("standalone jedis")
    class StandaloneJedis extends BatchLocksContract {

        StandaloneJedis(RedisServerProcess server) {
            super(RedisTopology.standaloneJedis(server));
        }
    }

    /** A 3-master Redis Cluster with spread mode off (the default there is spread): one hash tag (one slot) per namespace. */
    @Nested
    @DisplayName("cluster lettuce, one slot")
    class ClusterLettuceOneSlot extends BatchLocksContract {

        private final RedisClusterProcess cluster;

        ClusterLettuceOneSlot(RedisClusterProcess cluster) {
            super(RedisTopology.clusterLettuce(cluster));
            this.cluster = cluster;
        }

        @Override
        protected BatchLockConfig.Builder config(String nodeId) {
            return super.config(nodeId).spread(false);
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

    /** A 3-master Redis Cluster in spread mode: keys grouped by slot over every master. */
    @Nested
    @DisplayName("cluster lettuce, spread")
    class ClusterLettuceSpread extends BatchLocksContract {

        private final RedisClusterProcess cluster;

        ClusterLettuceSpread(RedisClusterProcess cluster) {
            super(RedisTopology.clusterLettuce(cluster));
            this.cluster = cluster;
        }

        @Override
        protected BatchLockConfig.Builder config(String nodeId) {
            return super.config(nodeId).spread(true);
        }

        @Test
        void keysSpreadOverEveryMaster() {
            try (BatchLease lease = node("a").tryAcquire(NS, keys(0, 300), Duration.ofSeconds(30)).orElseThrow()) {
                assertThat(lease.keyCount()).isEqualTo(300);
                assertThat(cluster.masters()).allSatisfy(m -> assertThat((Long) m.call("DBSIZE")).isPositive());
            }
        }
    }

    /** A 3-master Redis Cluster through Jedis, in the Cluster's default key mode. */
    @Nested
    @DisplayName("cluster jedis")
    class ClusterJedis extends BatchLocksContract {

        ClusterJedis(RedisClusterProcess cluster) {
            super(RedisTopology.clusterJedis(cluster));
        }
    }

    /** Through Redis Sentinel (spring-data-redis {@code RedisSentinelConfiguration}). */
    @Nested
    @DisplayName("sentinel lettuce")
    class SentinelLettuce extends BatchLocksContract {

        SentinelLettuce(RedisSentinelProcess sentinel) {
            super(RedisTopology.sentinelLettuce(sentinel));
        }
    }
}
