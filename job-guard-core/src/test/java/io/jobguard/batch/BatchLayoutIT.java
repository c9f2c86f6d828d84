package io.jobguard.batch;

import io.jobguard.NodeConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.RedisBinary;
import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch key layout follows the topology unless set: spread on a Redis Cluster with several
 * masters, one hash tag on standalone and on a one-master cluster; the first node's choice is recorded and
 * later nodes follow it, so one fleet never locks the same keys in two layouts; an explicit setting wins.
 */
@WithRedis
class BatchLayoutIT {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final List<String> KEYS = BatchLocksContract.keys(0, 300);

    @Test
    void aClusterOfSeveralMastersSpreadsByDefault(RedisClusterProcess cluster) {
        String prefix = "jglayout-auto";
        withLocks(cluster.connectionFactory(), prefix, null, locks -> {
            assertThat(locks.tryAcquire("ns", KEYS, LEASE).orElseThrow().keyCount()).isEqualTo(300);
            assertThat(locks).hasToString("RedisBatchLocks[prefix=" + prefix + ", spread=true]");
        });
        assertThat(cluster.masters()).as("every master carries buckets of the namespace")
                .allSatisfy(m -> assertThat((List<?>) m.call("KEYS", prefix + ":{ns~batch~*")).isNotEmpty());
        assertThat(get(cluster, prefix + ":batch-mode")).isEqualTo("spread");
    }

    @Test
    void aLaterNodeFollowsTheRecordedLayoutAndAnExplicitSettingWins(RedisClusterProcess cluster) {
        String prefix = "jglayout-follow";
        withLocks(cluster.connectionFactory(), prefix, false, locks ->
                assertThat(locks.tryAcquire("ns", KEYS, LEASE).orElseThrow().keyCount()).isEqualTo(300));
        assertThat(get(cluster, prefix + ":batch-mode")).as("the first node's choice is recorded").isEqualTo("hash");
        withLocks(cluster.connectionFactory(), prefix, null, locks -> {
            locks.tryAcquire("later", KEYS, LEASE).orElseThrow();
            assertThat(locks).hasToString("RedisBatchLocks[prefix=" + prefix + ", spread=false]");
        });
        assertThat(cluster.masters()).as("the later node's namespace sits in one slot, as the record says")
                .filteredOn(m -> !((List<?>) m.call("KEYS", prefix + ":{later~batch*")).isEmpty()).hasSize(1);
        withLocks(cluster.connectionFactory(), prefix, true, locks -> {
            locks.tryAcquire("explicit", KEYS, LEASE).orElseThrow();
            assertThat(locks).hasToString("RedisBatchLocks[prefix=" + prefix + ", spread=true]");
        });
        assertThat(get(cluster, prefix + ":batch-mode")).as("an explicit setting does not rewrite the record")
                .isEqualTo("hash");
    }

    @Test
    void standaloneUsesOneHashTagByDefault(RedisServerProcess server) {
        String prefix = "jglayout-standalone";
        withLocks(server.connectionFactory(), prefix, null, locks -> {
            locks.tryAcquire("ns", KEYS, LEASE).orElseThrow();
            assertThat(locks).hasToString("RedisBatchLocks[prefix=" + prefix + ", spread=false]");
        });
        assertThat(server.call("GET", prefix + ":batch-mode")).isEqualTo("hash");
        assertThat(server.call("EXISTS", prefix + ":{ns~batch}:held")).isEqualTo(1L);
    }

    @Test
    void aOneMasterClusterUsesOneHashTagByDefault() {
        try (RedisClusterProcess single = RedisClusterProcess.start(RedisBinary.executable(), 1)) {
            String prefix = "jglayout-single";
            withLocks(single.connectionFactory(), prefix, null, locks -> {
                locks.tryAcquire("ns", KEYS, LEASE).orElseThrow();
                assertThat(locks).hasToString("RedisBatchLocks[prefix=" + prefix + ", spread=false]");
            });
            assertThat(single.masters().get(0).call("GET", prefix + ":batch-mode")).isEqualTo("hash");
        }
    }

    private static Object get(RedisClusterProcess cluster, String key) {
        LettuceConnectionFactory factory = cluster.connectionFactory();
        try (var connection = factory.getConnection()) {
            byte[] value = connection.stringCommands().get(key.getBytes(StandardCharsets.UTF_8));
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        } finally {
            factory.destroy();
        }
    }

    private static void withLocks(LettuceConnectionFactory factory, String prefix, Boolean spread,
                                  java.util.function.Consumer<RedisBatchLocks> test) {
        try (RedisBatchLocks locks = RedisBatchLocks.create(factory, prefix,
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("layout").build()).spread(spread).build())) {
            test.accept(locks);
        } finally {
            factory.destroy();
        }
    }
}
