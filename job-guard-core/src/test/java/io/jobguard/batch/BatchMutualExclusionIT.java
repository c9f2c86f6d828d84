package io.jobguard.batch;

import io.jobguard.GuardType;
import io.jobguard.NodeConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mutual exclusion under load: 8 threads on two "nodes" (separate connection factories, so separate
 * connections) take random overlapping batches from a small pool, RETURN and WAIT mixed, one node
 * with chunks so small that most batches span several script calls. An independent checker, which
 * knows nothing of Redis, stamps every hold with a global sequence number after the acquisition
 * returned and before the release is sent; afterwards it asserts that no two hold intervals of one
 * key overlap.
 */
@WithRedis
class BatchMutualExclusionIT {

    private static final int THREADS = 8;
    private static final int ATTEMPTS_PER_THREAD = 5_000;
    private static final int POOL = 150;

    /** One hold of one key: [start, end] in the checker's sequence. */
    private record Hold(String key, long start, long end, long lease) {
    }

    @Test
    void noKeyIsEverHeldByTwoLeasesAtOnce(RedisServerProcess server) throws Exception {
        LettuceConnectionFactory f1 = server.connectionFactory();
        LettuceConnectionFactory f2 = server.connectionFactory();
        RedisBatchLocks node1 = RedisBatchLocks.create(f1, "jgtest", BatchLockConfig.builder()
                .node(NodeConfig.builder().nodeId("n1").build()).build());
        RedisBatchLocks node2 = RedisBatchLocks.create(f2, "jgtest",
                BatchLockConfig.builder().node(NodeConfig.builder().nodeId("n2").build()).chunkSize(3).build());
        AtomicLong sequence = new AtomicLong();
        ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
        Map<String, Long> liveHolder = new ConcurrentHashMap<>();
        AtomicInteger overlapsSeenLive = new AtomicInteger();
        AtomicInteger acquired = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                RedisBatchLocks locks = t % 2 == 0 ? node1 : node2;
                futures.add(pool.submit(() -> {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                        Set<String> batch = new HashSet<>();
                        int size = 1 + random.nextInt(12);
                        while (batch.size() < size) {
                            batch.add("k" + random.nextInt(POOL));
                        }
                        BatchRequest request = random.nextInt(20) == 0
                                ? new BatchRequest("mx", batch, Duration.ofSeconds(30), GuardType.WAIT,
                                Duration.ofMillis(100), false)
                                : BatchRequest.tryOnce("mx", batch, Duration.ofSeconds(30));
                        BatchAttempt attempt = locks.acquire(request);
                        if (attempt.acquired()) {
                            try (BatchLease lease = attempt.orElseThrow()) {
                                long id = lease.fencingToken();
                                long begin = sequence.incrementAndGet();
                                for (String key : batch) {
                                    if (liveHolder.putIfAbsent(key, id) != null) {
                                        overlapsSeenLive.incrementAndGet();
                                    }
                                }
                                for (String key : batch) {
                                    liveHolder.remove(key, id);
                                }
                                long end = sequence.incrementAndGet();
                                for (String key : batch) {
                                    holds.add(new Hold(key, begin, end, id));
                                }
                                acquired.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            node1.close();
            node2.close();
            f1.destroy();
            f2.destroy();
        }

        assertThat(overlapsSeenLive).hasValue(0);
        Map<String, List<Hold>> byKey = new ConcurrentHashMap<>();
        holds.forEach(h -> byKey.computeIfAbsent(h.key(), k -> new ArrayList<>()).add(h));
        List<String> overlaps = new ArrayList<>();
        byKey.forEach((key, list) -> {
            list.sort((x, y) -> Long.compare(x.start(), y.start()));
            for (int i = 1; i < list.size(); i++) {
                if (list.get(i).start() < list.get(i - 1).end()) {
                    overlaps.add(key + ": lease " + list.get(i - 1).lease() + " and " + list.get(i).lease());
                }
            }
        });
        assertThat(overlaps).isEmpty();
        System.out.printf("[measure] batch mutual exclusion: %d of %d attempts acquired, %d hold intervals checked%n",
                acquired.get(), THREADS * ATTEMPTS_PER_THREAD, holds.size());
        assertThat(acquired.get()).as("over ten thousand successful batches").isGreaterThanOrEqualTo(10_000);
    }
}
