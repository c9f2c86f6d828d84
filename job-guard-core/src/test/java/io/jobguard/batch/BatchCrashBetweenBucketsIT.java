package io.jobguard.batch;

import io.jobguard.GuardType;
import io.jobguard.NodeConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * All or nothing across a client crash between buckets: a client in a JVM of its own starts a
 * spread-mode batch of 3,000 keys on a 3-master Redis Cluster while one master is frozen (SIGSTOP), so the
 * buckets on the other two masters are taken and those on the frozen one are not; the client is then
 * SIGKILLed and the master thawed (it still runs whatever calls were already in its socket: a few more
 * chunks, never the whole batch). The test shows that the dead client holds a partial set, that for as long
 * as its lease lives no other batch (two nodes, several threads, random overlapping batches, RETURN and
 * WAIT) is granted any key of it nor overlaps another, and that once the lease has passed every key is
 * free and none of the dead client's records is left.
 */
class BatchCrashBetweenBucketsIT {

    private static final String PREFIX = "jgcrash";
    private static final String NS = "crash";
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final int KEYS = 3_000;
    private static final int BUCKETS = 16;
    private static final Duration CHILD_STEP = Duration.ofSeconds(60);

    @Test
    void aClientKilledBetweenBucketsLeavesNothingHeldPastItsLeaseAndNoBatchEverSeesAPartialSet() throws Exception {
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            List<RedisServerProcess> masters = cluster.masters();
            // Freeze a master that does not own the namespace's slot, so the fencing call goes through.
            int frozenIndex = (owner(ClusterSlotHashUtil.calculateSlot(NS + "~batch")) + 1) % masters.size();
            RedisServerProcess frozen = masters.get(frozenIndex);
            List<RedisServerProcess> running = new ArrayList<>(masters);
            running.remove(frozen);
            List<String> keys = BatchLocksContract.keys(0, KEYS);
            int expectedOnRunning = 0;
            String[] tags = bucketTags(NS);
            for (String key : keys) {
                int bucket = ClusterSlotHashUtil.calculateSlot(key) * BUCKETS / RedisClusterProcess.SLOTS;
                expectedOnRunning += owner(ClusterSlotHashUtil.calculateSlot(tags[bucket])) == frozenIndex ? 0 : 1;
            }
            assertThat(expectedOnRunning).as("the frozen master carries some of the batch").isBetween(1, KEYS - 1);

            String token;
            try (ChildJvm child = ChildJvm.start("crashing-child", ChildJvm.QUICK_START, BatchCrashChild.class,
                    List.of(String.join(",", cluster.nodes()), PREFIX, NS, Long.toString(LEASE.toMillis()),
                            Integer.toString(KEYS)))) {
                child.await("READY", CHILD_STEP);
                frozen.pause();
                try {
                    child.send("GO");
                    child.await("ACQUIRING", CHILD_STEP);
                    int expected = expectedOnRunning;
                    // Every bucket on the running masters is taken; the frozen master's are not.
                    await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
                            .until(() -> heldByChild(running).values().stream().mapToInt(Set::size).sum() == expected);
                    token = heldByChild(running).keySet().iterator().next();
                    // SIGKILL: no shutdown hook, no finally block, no release runs.
                    child.kill();
                    assertThat(child.outputLines()).as("the child never finished its batch")
                            .noneMatch(l -> l.startsWith("NODE RESULT"));
                } finally {
                    frozen.resume();
                }
            }
            // The thawed master runs what the dead client had already sent it; PING queues behind that.
            frozen.call("PING");
            Map<String, Long> expiryByKey = expiryOfHeldKeys(masters, token);
            Set<String> heldAtCrash = expiryByKey.keySet();
            assertThat(heldAtCrash).as("the dead client holds part of its batch, not all of it")
                    .hasSizeGreaterThanOrEqualTo(expectedOnRunning).hasSizeLessThan(KEYS);
            long lastExpiry = expiryByKey.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat(lastExpiry - System.nanoTime()).as("its records carry the lease's TTL")
                    .isPositive().isLessThanOrEqualTo(LEASE.toNanos());

            Checkers checkers = new Checkers(cluster, keys);
            checkers.runUntil(lastExpiry + TimeUnit.SECONDS.toNanos(1));

            assertThat(checkers.overlaps).as("no key was ever held by two leases at once").hasValue(0);
            assertThat(checkers.refusedByTheDeadClient).as("batches met the dead client's keys while its lease lived")
                    .hasPositiveValue();
            List<String> early = new ArrayList<>();
            int grantedDeadKeys = 0;
            for (Checkers.Grant grant : checkers.grants) {
                for (String key : grant.keys()) {
                    Long expiry = expiryByKey.get(key);
                    if (expiry == null) {
                        continue;
                    }
                    grantedDeadKeys++;
                    // 50 ms covers the round trip of the PTTL reading the expiry is estimated from.
                    if (grant.returnedAtNanos() < expiry - TimeUnit.MILLISECONDS.toNanos(50)) {
                        early.add(key + " granted " + TimeUnit.NANOSECONDS.toMillis(expiry - grant.returnedAtNanos())
                                + " ms before the dead client's record of it expired");
                    }
                }
            }
            assertThat(early).as("no batch was granted a key of the dead client's partial set while it lived").isEmpty();
            assertThat(grantedDeadKeys).as("after the lease the dead client's keys were granted again").isPositive();

            for (RedisServerProcess master : masters) {
                assertThat((List<?>) master.call("KEYS", PREFIX + ":*:lease:" + token))
                        .as("no record of the dead client is left on " + master).isEmpty();
            }
            LettuceConnectionFactory factory = cluster.connectionFactory();
            try (RedisBatchLocks locks = RedisBatchLocks.create(factory, PREFIX,
                    BatchLockConfig.builder().node(NodeConfig.builder().nodeId("after").build()).spread(true).build());
                 BatchLease all = locks.tryAcquire(NS, keys, LEASE).orElseThrow()) {
                assertThat(all.keyCount()).as("every key is free after the lease").isEqualTo(KEYS);
            } finally {
                factory.destroy();
            }
        }
    }

    /** Fields of every batch hash on the given masters, grouped by the token they name (only the child writes). */
    private static Map<String, Set<String>> heldByChild(List<RedisServerProcess> masters) {
        Map<String, Set<String>> byToken = new ConcurrentHashMap<>();
        for (RedisServerProcess master : masters) {
            for (Object hash : (List<?>) master.call("KEYS", PREFIX + ":{" + NS + "~batch~*}:held")) {
                List<?> fieldsAndValues = (List<?>) master.call("HGETALL", hash.toString());
                for (int i = 0; i + 1 < fieldsAndValues.size(); i += 2) {
                    String field = fieldsAndValues.get(i).toString();
                    if (!field.isEmpty()) {
                        byToken.computeIfAbsent(fieldsAndValues.get(i + 1).toString(), t -> new HashSet<>()).add(field);
                    }
                }
            }
        }
        return byToken;
    }

    /**
     * The keys a lease holds, each with the moment (System.nanoTime) its bucket's record expires: a key is
     * held while its hash field names the token and the record under the same bucket lives.
     */
    private static Map<String, Long> expiryOfHeldKeys(List<RedisServerProcess> masters, String token) {
        Map<String, Long> out = new ConcurrentHashMap<>();
        for (RedisServerProcess master : masters) {
            for (Object hash : (List<?>) master.call("KEYS", PREFIX + ":{" + NS + "~batch~*}:held")) {
                String base = hash.toString().substring(0, hash.toString().length() - ":held".length());
                long readAt = System.nanoTime();
                long pttl = (Long) master.call("PTTL", base + ":lease:" + token);
                if (pttl <= 0) {
                    continue;
                }
                List<?> fieldsAndValues = (List<?>) master.call("HGETALL", hash.toString());
                for (int i = 0; i + 1 < fieldsAndValues.size(); i += 2) {
                    if (token.equals(fieldsAndValues.get(i + 1).toString())) {
                        out.put(fieldsAndValues.get(i).toString(), readAt + TimeUnit.MILLISECONDS.toNanos(pttl));
                    }
                }
            }
        }
        return out;
    }

    /** The master index owning a slot, in the harness's redis-cli split of three masters. */
    private static int owner(int slot) {
        return slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
    }

    /** The spread-mode bucket hash tags, computed as job-guard documents them (smallest n per slot range). */
    private static String[] bucketTags(String namespace) {
        String[] tags = new String[BUCKETS];
        int missing = BUCKETS;
        for (int n = 0; missing > 0; n++) {
            String tag = namespace + "~batch~" + n;
            int bucket = ClusterSlotHashUtil.calculateSlot(tag) * BUCKETS / RedisClusterProcess.SLOTS;
            if (tags[bucket] == null) {
                tags[bucket] = tag;
                missing--;
            }
        }
        return tags;
    }

    /** Two nodes x 3 threads taking random overlapping batches of the dead client's keys, checked for overlap. */
    private static final class Checkers {

        record Grant(Set<String> keys, long returnedAtNanos) {
        }

        private final RedisClusterProcess cluster;
        private final List<String> pool;
        final ConcurrentLinkedQueue<Grant> grants = new ConcurrentLinkedQueue<>();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger refusedByTheDeadClient = new AtomicInteger();
        private final Map<String, Long> liveHolder = new ConcurrentHashMap<>();
        private final AtomicLong holds = new AtomicLong();

        Checkers(RedisClusterProcess cluster, List<String> pool) {
            this.cluster = cluster;
            this.pool = pool;
        }

        void runUntil(long endNanos) throws Exception {
            ExecutorService threads = Executors.newFixedThreadPool(6);
            List<LettuceConnectionFactory> factories = List.of(cluster.connectionFactory(), cluster.connectionFactory());
            List<RedisBatchLocks> nodes = new ArrayList<>();
            try {
                for (int i = 0; i < factories.size(); i++) {
                    nodes.add(RedisBatchLocks.create(factories.get(i), PREFIX,
                            BatchLockConfig.builder().node(NodeConfig.builder().nodeId("checker-" + i).build())
                                    .spread(true).build()));
                }
                List<Future<?>> running = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    RedisBatchLocks locks = nodes.get(t % nodes.size());
                    running.add(threads.submit(() -> {
                        while (System.nanoTime() - endNanos < 0) {
                            attempt(locks);
                        }
                        return null;
                    }));
                }
                for (Future<?> future : running) {
                    future.get(60, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
                nodes.forEach(RedisBatchLocks::close);
                factories.forEach(LettuceConnectionFactory::destroy);
            }
        }

        private void attempt(RedisBatchLocks locks) throws InterruptedException {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            Set<String> batch = new HashSet<>();
            int size = 1 + random.nextInt(40);
            while (batch.size() < size) {
                batch.add(pool.get(random.nextInt(pool.size())));
            }
            BatchRequest request = random.nextInt(5) == 0
                    ? new BatchRequest(NS, batch, Duration.ofSeconds(10), GuardType.WAIT, Duration.ofMillis(200), false)
                    : BatchRequest.tryOnce(NS, batch, Duration.ofSeconds(10));
            BatchAttempt attempt = locks.acquire(request);
            if (!attempt.acquired()) {
                if (attempt.conflicts().stream().anyMatch(c -> "crashing-child".equals(c.holder().nodeId()))) {
                    refusedByTheDeadClient.incrementAndGet();
                }
                return;
            }
            long returnedAt = System.nanoTime();
            try (BatchLease lease = attempt.orElseThrow()) {
                long id = holds.incrementAndGet();
                for (String key : batch) {
                    if (liveHolder.putIfAbsent(key, id) != null) {
                        overlaps.incrementAndGet();
                    }
                }
                for (String key : batch) {
                    liveHolder.remove(key, id);
                }
                grants.add(new Grant(Set.copyOf(lease.keys()), returnedAt));
            }
        }
    }
}
