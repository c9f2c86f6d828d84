package io.jobguard.recovery;

import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.LongPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The double fault, with every node in its own JVM ({@link RestartingNode}, an every-second {@code RETURN} job fired
 * through {@code JobGuard.admit}, skew tolerance {@value #TOLERANCE} ms): n1 (−2 s), n2 (0) and n3 (+3 s) run the job;
 * Redis is restarted empty and, without waiting for anything (no lineage, no publication), every node is SIGTERMed in
 * the same moment and started again; the test waits until the job runs again, and repeats. Each node appends what it
 * ran to its own ledger (append-only, forced to disk); the checker reads only the ledgers: across all rounds, no fire
 * time started twice. Each round also measures the time from Redis accepting writes again, and from every restarted
 * node being ready, to the job's first run, and asserts the bound: the restarted nodes know nothing of the fleet, so
 * they wait out the skew tolerance, and the job runs again at the latest one tolerance + one period (+ 2 s for a
 * loaded machine) after the last node was ready. What makes the restarted nodes know of the loss: each SIGTERMed node
 * publishes its clock lead once more as it closes, which marks the re-created leads hash {@code lost}
 * ({@code FleetLeads.farewell}); docs/reliability.md §2, "The double fault, measured".
 */
@WithRedis
class DoubleFaultIT {

    private static final long[] CLOCKS = {-2000, 0, 3000};
    private static final long TOLERANCE = 5000;
    private static final int LONG_ROUNDS = 20;

    private final RedisServerProcess redis;
    private RestartingNodes nodes;
    private String job;
    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed test keeps its ledgers and the nodes' logs
    Path dir;

    DoubleFaultIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void harness() {
        redis.ensureRunning();
        redis.flushAll();
        nodes = new RestartingNodes(redis.port(), dir, 3);
        job = "double-" + System.nanoTime();
    }

    @AfterEach
    void stopNodes() {
        nodes.close();
        redis.ensureRunning();
    }

    @Test
    void redisRestartedEmptyAndEveryNodeSigtermedInTheSameSecondRunsNothingTwice() throws Exception {
        rounds(1);
    }

    @Test
    @LongSuite
    void twentyDoubleFaultsRunNothingTwice() throws Exception {
        rounds(LONG_ROUNDS);
    }

    private void rounds(int count) throws Exception {
        startAll();
        long started = System.currentTimeMillis();
        awaitOrShow(() -> runs(wall -> wall > started).size() >= 2);
        List<String> measured = new ArrayList<>();
        long worst = 0;
        for (int round = 1; round <= count; round++) {
            long lost = System.currentTimeMillis();
            redis.restart(); // SHUTDOWN NOSAVE, no persistence: it comes back empty
            long back = System.currentTimeMillis();
            nodes.stopAll(0, 1, 2);
            long[] ready = new long[3];
            for (int i = 0; i < 3; i++) {
                ready[i] = nodes.count(i, "READY");
            }
            startAll();
            awaitOrShow(() -> {
                for (int i = 0; i < 3; i++) {
                    if (nodes.count(i, "READY") <= ready[i]) {
                        return false;
                    }
                }
                return true;
            });
            long allReady = System.currentTimeMillis();
            awaitOrShow(() -> !runs(wall -> wall > allReady).isEmpty());
            String[] first = runs(wall -> wall > allReady).get(0);
            long firstWall = Long.parseLong(first[5]);
            worst = Math.max(worst, firstWall - allReady);
            long refused = nodes.lines().stream().filter(l -> l[0].equals("HISTORY_LOST")
                    && Long.parseLong(l[4]) > back).count();
            measured.add(String.format("round %d: Redis down %d ms after the round began, nodes ready %d ms after "
                    + "Redis was back, %d refusals HISTORY_LOST, first run %s on %s %d ms after all were ready (%d ms "
                    + "after Redis was back; its fire time %d ms after Redis was back)", round, back - lost,
                    allReady - back, refused, first[1], first[2], firstWall - allReady, firstWall - back,
                    Long.parseLong(first[1]) - back));
            assertThat(firstWall - allReady).as("round %d: the job runs again within the skew tolerance + one period "
                    + "(+ 2 s) of the restarted nodes being ready, in %s", round, nodes.describe())
                    .isLessThanOrEqualTo(TOLERANCE + 1000 + 2000);
        }
        nodes.stopAll(0, 1, 2);

        String ledgers = nodes.describe();
        Map<Long, List<String>> byFireTime = new TreeMap<>();
        for (String[] run : runs(wall -> true)) {
            byFireTime.computeIfAbsent(Long.parseLong(run[1]), t -> new ArrayList<>()).add(String.join(" ", run));
        }
        long twice = byFireTime.values().stream().filter(r -> r.size() > 1).count();
        measured.forEach(m -> System.out.println("[measure] double fault " + m));
        System.out.printf("[measure] double fault: %d rounds, %d fire times ran, %d twice; the job ran again at most "
                + "%d ms after the restarted nodes were ready%n", count, byFireTime.size(), twice, worst);
        byFireTime.forEach((t, runs) -> assertThat(runs).as("fire time %d in %s", t, ledgers).hasSize(1));
    }

    private void startAll() {
        for (int i = 0; i < 3; i++) {
            nodes.start(i, CLOCKS[i], TOLERANCE, job, "NONE", "0");
        }
    }

    /** Every START line of every ledger whose wall time matches, by wall time. */
    private List<String[]> runs(LongPredicate wall) {
        List<String[]> runs = new ArrayList<>(nodes.lines().stream()
                .filter(l -> l[0].equals("START") && wall.test(Long.parseLong(l[5]))).toList());
        runs.sort((a, b) -> Long.compare(Long.parseLong(a[5]), Long.parseLong(b[5])));
        return runs;
    }

    /** Waits up to 40 s for the condition; on time-out fails with every ledger. */
    private void awaitOrShow(Callable<Boolean> condition) {
        try {
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(20)).until(condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + " in " + nodes.describe(), e);
        }
    }
}
