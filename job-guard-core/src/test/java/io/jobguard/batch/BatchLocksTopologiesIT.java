package io.jobguard.batch;

import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisSentinelProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

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

        private final RedisServerProcess server;
        private final LettuceConnectionFactory connectionFactory;

        StandaloneLettuce(RedisServerProcess server) {
            this.server = server;
            this.connectionFactory = server.connectionFactory();
        }

        @Override
        protected RedisConnectionFactory connectionFactory() {
            return connectionFactory;
        }

        @Override
        protected void deleteAllKeys() {
            server.flushAll();
        }

        @Override
        protected void closeConnections() {
            connectionFactory.destroy();
        }
    }

    @Nested
    @DisplayName("standalone jedis")
    class StandaloneJedis extends BatchLocksContract {

        private final RedisServerProcess server;
        private final JedisConnectionFactory connectionFactory;

        StandaloneJedis(RedisServerProcess server) {
            this.server = server;
            this.connectionFactory = server.jedisConnectionFactory();
        }

        @Override
        protected RedisConnectionFactory connectionFactory() {
            return connectionFactory;
        }

        @Override
        protected void deleteAllKeys() {
            server.flushAll();
        }

        @Override
        protected void closeConnections() {
            connectionFactory.destroy();
        }
    }

    /** A 3-master Redis Cluster with spread mode off (the default there is spread): one hash tag (one slot) per namespace. */
    @Nested
    @DisplayName("cluster lettuce, one slot")
    class ClusterLettuceOneSlot extends BatchLocksContract {

        private final RedisClusterProcess cluster;
        private final LettuceConnectionFactory connectionFactory;

        ClusterLettuceOneSlot(RedisClusterProcess cluster) {
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

    /** A 3-master Redis Cluster in spread mode: keys grouped by slot over every master. */
    @Nested
    @DisplayName("cluster lettuce, spread")
    class ClusterLettuceSpread extends BatchLocksContract {

        private final RedisClusterProcess cluster;
        private final LettuceConnectionFactory connectionFactory;

        ClusterLettuceSpread(RedisClusterProcess cluster) {
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

    /** A 3-master Redis Cluster through Jedis, in the Cluster's default key mode. */
    @Nested
    @DisplayName("cluster jedis")
    class ClusterJedis extends BatchLocksContract {

        private final RedisClusterProcess cluster;
        private final JedisConnectionFactory connectionFactory;

        ClusterJedis(RedisClusterProcess cluster) {
            this.cluster = cluster;
            this.connectionFactory = cluster.jedisConnectionFactory();
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
    }

    /** Through Redis Sentinel (spring-data-redis {@code RedisSentinelConfiguration}). */
    @Nested
    @DisplayName("sentinel lettuce")
    class SentinelLettuce extends BatchLocksContract {

        private final RedisSentinelProcess sentinel;
        private final LettuceConnectionFactory connectionFactory;

        SentinelLettuce(RedisSentinelProcess sentinel) {
            this.sentinel = sentinel;
            this.connectionFactory = sentinel.connectionFactory();
        }

        @Override
        protected RedisConnectionFactory connectionFactory() {
            return connectionFactory;
        }

        @Override
        protected void deleteAllKeys() {
            sentinel.flushAll();
        }

        @Override
        protected void closeConnections() {
            connectionFactory.destroy();
        }
    }
}
