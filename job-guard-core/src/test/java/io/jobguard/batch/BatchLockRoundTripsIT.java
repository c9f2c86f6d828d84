package io.jobguard.batch;

import io.jobguard.NodeConfig;
import io.jobguard.micrometer.BatchLockMetrics;
import io.jobguard.micrometer.MetricNames;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What the server sees: one script call per chunk for acquire, renew and release (counted in
 * {@code INFO commandstats}), nothing at all for rejected input, and the batch meters.
 */
@WithRedis
class BatchLockRoundTripsIT {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private final RedisServerProcess server;
    private LettuceConnectionFactory connectionFactory;
    private RedisBatchLocks locks;

    BatchLockRoundTripsIT(RedisServerProcess server) {
        this.server = server;
    }

    @BeforeEach
    void open() {
        connectionFactory = server.connectionFactory();
        locks = RedisBatchLocks.create(connectionFactory, "jgtest",
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("a").build()).chunkSize(3000).maxKeys(5000)
                        .maxKeyLength(40).build());
        // Loads the scripts (a first EVALSHA may answer NOSCRIPT) so that the counts below are exact.
        try (BatchLease warm = locks.tryAcquire("warm", List.of("x"), LEASE).orElseThrow()) {
            assertThat(warm.renew()).isTrue();
        }
    }

    @AfterEach
    void close() {
        locks.close();
        connectionFactory.destroy();
    }

    @Test
    void acquireRenewAndReleaseOf3000KeysAreOneRoundTripEach() {
        server.resetStats();
        BatchLease lease = locks.tryAcquire("sku", BatchLocksContract.keys(0, 3000), LEASE).orElseThrow();
        assertThat(calls()).containsEntry("evalsha", 1L).doesNotContainKey("eval");
        // The work per key stays inside a few multi-key commands, not one command per key; the two SETs
        // are the fencing counter (max(counter + 1, TIME)) and the lease record. No other lease holds keys
        // in the namespace, so nothing needs reading back (beside another lease, see below: one HMGET each).
        assertThat(calls()).containsEntry("hset", 3L).containsEntry("set", 2L).doesNotContainKey("hmget");

        server.resetStats();
        assertThat(lease.renew()).isTrue();
        assertThat(calls()).containsEntry("evalsha", 1L).doesNotContainKey("eval");
        assertThat(calls().get("pexpire")).as("renewal extends the lease record and the hash, not 3,000 keys")
                .isBetween(1L, 2L);

        server.resetStats();
        lease.close();
        assertThat(calls()).containsEntry("evalsha", 1L).doesNotContainKey("eval")
                .as("a live lease's own keys need no owner read-back").doesNotContainKey("hmget");
        assertThat((Long) server.call("DBSIZE")).as("only the fencing counters and the layout's record remain")
                .isEqualTo(3L);
    }

    @Test
    void besideAnotherLeaseEvery1000KeysAreCheckedInOneHmgetAndReleasedInOneHdel() {
        try (BatchLease other = locks.tryAcquire("sku", List.of("OTHER"), LEASE).orElseThrow()) {
            server.resetStats();
            BatchLease lease = locks.tryAcquire("sku", BatchLocksContract.keys(0, 3000), LEASE).orElseThrow();
            assertThat(calls()).containsEntry("evalsha", 1L).containsEntry("hmget", 3L).containsEntry("hset", 3L);

            server.resetStats();
            lease.close();
            assertThat(calls()).containsEntry("evalsha", 1L).containsEntry("hdel", 3L).doesNotContainKey("hmget");
            assertThat((Long) server.call("HLEN", "jgtest:{sku~batch}:held")).as("the marker and the other's key")
                    .isEqualTo(2L);
            assertThat(other.isValid()).isTrue();
        }
    }

    @Test
    void aLeaseHoldingANamespaceAloneIsReleasedInOneCallForAllItsChunks() {
        try (RedisBatchLocks chunked = RedisBatchLocks.create(connectionFactory, "jgtest",
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("b").build()).chunkSize(1000).build())) {
            BatchLease lease = chunked.tryAcquire("alone", BatchLocksContract.keys(0, 3000), LEASE).orElseThrow();
            String marker = (String) server.call("HGET", "jgtest:{alone~batch}:held", "");
            assertThat(marker).as("the marker names the lease holding every key of the hash")
                    .matches("job-guard batch lock holders: .*; alone: \\S+");
            server.resetStats();
            long bytesBefore = netInputBytes();
            lease.close();
            assertThat(calls()).as("one call drops the hash, the record and the index entry, and wakes waiters")
                    .containsEntry("evalsha", 1L).containsEntry("publish", 1L).doesNotContainKey("hdel");
            assertThat(netInputBytes() - bytesBefore).as("that call names none of the 3,000 keys").isLessThan(3_000L);
            assertThat((Long) server.call("EXISTS", "jgtest:{alone~batch}:held")).isZero();
            assertThat((List<?>) server.call("KEYS", "jgtest:{alone~batch}:lease:*")).isEmpty();
            assertThat(chunked.liveLeases("alone")).isEmpty();
        }
    }

    @Test
    void aLeaseThatHeldANamespaceAloneReleasesOnlyItsOwnKeysOnceAnotherJoined() {
        String held = "jgtest:{joined~batch}:held";
        BatchLease first = locks.tryAcquire("joined", BatchLocksContract.keys(0, 10), LEASE).orElseThrow();
        assertThat((String) server.call("HGET", held, "")).matches(".*; alone: \\S+");
        BatchLease second = locks.tryAcquire("joined", BatchLocksContract.keys(20, 30), LEASE).orElseThrow();
        assertThat((String) server.call("HGET", held, "")).as("two leases hold keys: the marker names neither")
                .endsWith("; alone: ");
        assertThat(locks.tryAcquire("joined", BatchLocksContract.keys(9, 21), LEASE).conflicts())
                .extracting(BatchConflict::key).containsExactlyInAnyOrder("SKU-00009", "SKU-00020");
        // Extending the first lease now reads its new keys' holders: none may be the second's.
        assertThat(first.tryExtend(BatchLocksContract.keys(25, 35))).extracting(BatchConflict::key)
                .containsExactlyInAnyOrder("SKU-00025", "SKU-00026", "SKU-00027", "SKU-00028", "SKU-00029");

        first.close();
        assertThat((Long) server.call("HLEN", held)).as("the marker and the second lease's 10 keys").isEqualTo(11L);
        assertThat(locks.tryAcquire("joined", BatchLocksContract.keys(20, 30), LEASE).acquired())
                .as("the second lease's keys stay held").isFalse();
        try (BatchLease again = locks.tryAcquire("joined", BatchLocksContract.keys(0, 10), LEASE).orElseThrow()) {
            assertThat(again.keyCount()).isEqualTo(10);
        }
        second.close();
        assertThat((Long) server.call("EXISTS", held)).isZero();
    }

    @Test
    void aLeaseThatWasAloneAtItsLastCallSendsItsKeysOnlyOnceTheHashIsShared() {
        String held = "jgtest:{probe~batch}:held";
        BatchLease first = locks.tryAcquire("probe", BatchLocksContract.keys(0, 10), LEASE).orElseThrow();
        try (BatchLease second = locks.tryAcquire("probe", BatchLocksContract.keys(20, 30), LEASE).orElseThrow()) {
            server.resetStats();
            first.close();
            assertThat(calls()).as("a call without keys finds the hash shared, then one call releases the keys")
                    .containsEntry("evalsha", 2L).containsEntry("hdel", 1L).containsEntry("publish", 1L);
            assertThat((Long) server.call("HLEN", held)).as("the marker and the second lease's 10 keys").isEqualTo(11L);
            assertThat(locks.tryAcquire("probe", BatchLocksContract.keys(20, 21), LEASE).acquired())
                    .as("the second lease's keys stay held").isFalse();
            assertThat(second.isValid()).isTrue();
        }
        assertThat((Long) server.call("EXISTS", held)).isZero();
    }

    @Test
    void chunksSplitABatchIntoBoundedScriptCalls() {
        try (RedisBatchLocks chunked = RedisBatchLocks.create(connectionFactory, "jgtest",
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("b").build()).chunkSize(1000).build())) {
            server.resetStats();
            BatchLease lease = chunked.tryAcquire("sku", BatchLocksContract.keys(0, 3000), LEASE).orElseThrow();
            assertThat(calls()).containsEntry("evalsha", 3L);
            lease.close();
        }
    }

    @Test
    void badInputIsRejectedNamingTheProblemBeforeAnythingIsSent() {
        server.resetStats();
        List<String> withNull = new ArrayList<>(List.of("a", "b"));
        withNull.add(null);
        rejects(() -> locks.tryAcquire("sku", List.of(), LEASE), "batch keys must not be empty");
        rejects(() -> locks.tryAcquire("sku", null, LEASE), "batch keys must not be null");
        rejects(() -> locks.tryAcquire("sku", withNull, LEASE), "batch key #2 is null");
        rejects(() -> locks.tryAcquire("sku", List.of("a", " "), LEASE), "batch key #1 is blank");
        rejects(() -> locks.tryAcquire("sku", List.of("k".repeat(41)), LEASE),
                "batch key #0 is 41 characters long, more than maxKeyLength 40");
        rejects(() -> locks.tryAcquire("sku", BatchLocksContract.keys(0, 5001), LEASE),
                "batch of 5001 distinct keys exceeds maxKeys 5000");
        rejects(() -> locks.tryAcquire("sku", List.of("a"), Duration.ZERO), "batch lease must be positive");
        rejects(() -> locks.tryAcquire("sku", List.of("a"), Duration.ofSeconds(-1)), "batch lease must be positive");
        rejects(() -> locks.tryAcquire(" ", List.of("a"), LEASE), "batch namespace must not be blank");
        rejects(() -> locks.tryAcquire("a{b}", List.of("a"), LEASE), "batch namespace 'a{b}' contains '{'");
        rejects(() -> locks.acquire("sku", List.of("a"), LEASE, Duration.ofSeconds(-1)),
                "batch waitFor must be zero or positive");
        // The only command counted is the harness's stats reset: "config|resetstat" on Redis 7, "config" on 6.2
        // (which counts CONFIG subcommands under one name).
        assertThat(calls().keySet()).as("nothing but the stats reset reached the server")
                .allMatch(command -> command.equals("config") || command.equals("config|resetstat"));
    }

    @Test
    void duplicatesDoNotCountTowardsTheMaximum() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            many.addAll(BatchLocksContract.keys(0, 5000));
        }
        try (BatchLease lease = locks.tryAcquire("sku", many, LEASE).orElseThrow()) {
            assertThat(lease.keyCount()).isEqualTo(5000);
        }
    }

    @Test
    void configRejectsNonsenseNamingTheSetting() {
        assertThatThrownBy(() -> BatchLockConfig.builder().chunkSize(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BatchLockConfig.chunkSize");
        assertThatThrownBy(() -> BatchLockConfig.builder().node(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("BatchLockConfig.node");
        assertThatThrownBy(() -> RedisBatchLocks.create(connectionFactory, "a{b", BatchLockConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyPrefix");
    }

    @Test
    void metricsCountAcquisitionsByResultAndKeys() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new BatchLockMetrics(locks).bindTo(registry);
        try (BatchLease lease = locks.tryAcquire("sku", BatchLocksContract.keys(0, 10), LEASE).orElseThrow()) {
            assertThat(locks.tryAcquire("sku", BatchLocksContract.keys(5, 15), LEASE).acquired()).isFalse();
            assertThat(lease.isValid()).isTrue();
        }
        assertThat(registry.get(MetricNames.BATCH_ACQUIRE).tags("result", "acquired", "namespace", "sku").timer().count())
                .isEqualTo(1);
        assertThat(registry.get(MetricNames.BATCH_ACQUIRE).tags("result", "conflict", "namespace", "sku").timer().count())
                .isEqualTo(1);
        assertThat(registry.get(MetricNames.BATCH_KEYS).tags("namespace", "sku").summary().totalAmount()).isEqualTo(20.0);
    }

    @Test
    void aCrashedHoldersKeysTurnFreeWithItsRecordAndLeaveNothingBehindOnceIdle() {
        // A holder that never releases (its process died): only its record's TTL frees the keys.
        BatchLease crashed = locks.tryAcquire("crash", BatchLocksContract.keys(0, 100), Duration.ofSeconds(1))
                .orElseThrow();
        assertThat(crashed.fencingToken()).isPositive();
        try (RedisBatchLocks other = RedisBatchLocks.create(connectionFactory, "jgtest",
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("b").build()).build())) {
            assertThat(other.tryAcquire("crash", BatchLocksContract.keys(99, 100), LEASE).acquired()).isFalse();
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                BatchAttempt attempt = other.tryAcquire("crash", BatchLocksContract.keys(50, 150), Duration.ofMillis(300));
                attempt.lease().ifPresent(BatchLease::close);
                return attempt.acquired();
            });
        }
        // Keys 0..49 were never released: their dead fields go with the hash once no lease needs it.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> (Long) server.call("EXISTS", "jgtest:{crash~batch}:held") == 0L);
    }

    @Test
    void aSmallBatchKeepsTheHashInHashtableEncodingAndAnIdleNamespaceLeavesNoHash() {
        // Below 128 fields Redis would pick the listpack encoding, where every field lookup scans the
        // whole hash: measured 77 µs instead of 28 µs of Redis time for a refused 100-key batch.
        BatchLease lease = locks.tryAcquire("small", BatchLocksContract.keys(0, 10), LEASE).orElseThrow();
        assertThat(server.call("OBJECT", "ENCODING", "jgtest:{small~batch}:held")).isEqualTo("hashtable");
        try (BatchLease other = locks.tryAcquire("small", BatchLocksContract.keys(20, 30), LEASE).orElseThrow()) {
            lease.close();
            assertThat((Long) server.call("EXISTS", "jgtest:{small~batch}:held"))
                    .as("another lease still holds keys").isEqualTo(1L);
            assertThat(other.keyCount()).isEqualTo(10);
        }
        assertThat((Long) server.call("EXISTS", "jgtest:{small~batch}:held")).isZero();
    }

    @Test
    void aValueJobGuardDidNotWriteIsReportedAsAForeignHolder() {
        server.call("SET", "jgtest:{alien~batch}:held", "somebody else's string");
        BatchAttempt attempt = locks.tryAcquire("alien", List.of("a", "b"), LEASE);
        assertThat(attempt.result()).isEqualTo(BatchResult.CONFLICT);
        assertThat(attempt.conflicts()).singleElement().satisfies(c -> {
            assertThat(c.key()).isEqualTo("a");
            assertThat(c.holder().foreign()).isTrue();
        });
        assertThat(server.call("GET", "jgtest:{alien~batch}:held")).isEqualTo("somebody else's string");
    }

    private long netInputBytes() {
        return server.info("stats").lines().filter(l -> l.startsWith("total_net_input_bytes:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElseThrow();
    }

    private Map<String, Long> calls() {
        return server.commandStats();
    }

    private static void rejects(ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
