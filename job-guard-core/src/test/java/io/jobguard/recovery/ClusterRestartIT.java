package io.jobguard.recovery;

import io.jobguard.JobGuardConfig;
import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A whole cluster restarts (the scenario of a deploy that stops every node): three nodes, each its own JVM
 * ({@link RestartingNode}, scheduler clocks −2 s, 0 and +3 s), run an every-second {@code RUN_ALL} job
 * ({@code catch-up-max} 50) on one redis-server; every node is stopped with SIGTERM, kept down 8 s (at least 3 fire
 * times that no node was up to run, counting the clock offsets) and started again with the same node id; then the nodes' append-only ledgers are judged by a checker that
 * knows nothing of the engine: every fire time from the job's first run up to its last regular run started
 * exactly once or was reported {@code MISSED} exactly once, and none started twice anywhere. Run on the default skew
 * tolerance (5 min) and, in the long suite ({@link LongSuite}), on a short one (10 s, longer than the outage).
 *
 * <p>{@code -Djobguard.restart.rounds=N} (default 1) runs N outages in a row; odd rounds restart the nodes one by
 * one instead (each node restarting while the others run, possibly catching up).
 */
@WithRedis
class ClusterRestartIT {

    private static final long[] CLOCKS = {-2000, 0, 3000};
    private static final int ROUNDS = Integer.getInteger("jobguard.restart.rounds", 1);
    private static final Duration OUTAGE = Duration.ofSeconds(8);

    private final RedisServerProcess redis;
    private RestartingNodes nodes;
    @TempDir
    Path dir;

    ClusterRestartIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void startHarness() {
        nodes = new RestartingNodes(redis.port(), dir, CLOCKS.length);
    }

    @AfterEach
    void kill() {
        nodes.close();
    }

    @Test
    void afterTheWholeClusterRestartsEveryFireTimeStartsOnceOrIsReportedMissedOnce() throws Exception {
        restartTheCluster(JobGuardConfig.builder().build().skewTolerance());
    }

    @Test
    @LongSuite
    void onAShortSkewToleranceEveryFireTimeStartsOnceOrIsReportedMissedOnce() throws Exception {
        restartTheCluster(Duration.ofSeconds(10));
    }

    private void restartTheCluster(Duration tolerance) throws Exception {
        String job = "restart-" + tolerance.toSeconds() + "-" + System.nanoTime();
        // the node with the true clock starts first: its first run creates the job's record, where judging begins
        start(1, job, tolerance);
        await().atMost(Duration.ofSeconds(30)).until(() -> count(1, "START") > 0);
        start(0, job, tolerance);
        start(2, job, tolerance);
        awaitReady(1);
        awaitRegularRunsAfter(System.currentTimeMillis(), 3);
        List<long[]> outages = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            if (round % 2 == 0) {
                // the node whose clock is ahead first: it has run fire times up to 3 s into the future
                for (int i = CLOCKS.length - 1; i >= 0; i--) {
                    stop(i);
                }
                long lastRun = lines().stream().filter(l -> l[0].equals("START")).mapToLong(l -> Long.parseLong(l[1]))
                        .max().orElseThrow();
                await().pollDelay(OUTAGE).atMost(OUTAGE.plusSeconds(1)).until(() -> true);
                // no node fires a fire time before this as a regular firing: the lagging clock is 2 s behind
                long noRegularBefore = System.currentTimeMillis() + CLOCKS[0];
                for (int i = 0; i < CLOCKS.length; i++) {
                    start(i, job, tolerance);
                }
                awaitReady(round + 2);
                outages.add(new long[] {lastRun, noRegularBefore});
            } else {
                for (int i = 0; i < CLOCKS.length; i++) {
                    stop(i);
                    start(i, job, tolerance);
                    int node = i;
                    int starts = round + 2;
                    await().atMost(Duration.ofSeconds(30)).until(() -> count(node, "READY") >= starts);
                }
            }
            awaitRegularRunsAfter(System.currentTimeMillis() + 3000, 1);
        }
        for (int i = 0; i < CLOCKS.length; i++) {
            stop(i);
        }
        judge(outages);
    }

    private void start(int node, String job, Duration tolerance) {
        nodes.start(node, CLOCKS[node], tolerance.toMillis(), job, "RUN_ALL", "50");
    }

    private void stop(int node) throws InterruptedException {
        nodes.stop(node);
    }

    private void awaitReady(int starts) {
        await().atMost(Duration.ofSeconds(40)).until(() -> {
            for (int i = 0; i < CLOCKS.length; i++) {
                if (count(i, "READY") < starts) {
                    return false;
                }
            }
            return true;
        });
    }

    private void awaitRegularRunsAfter(long fireTimeMillis, int runs) {
        await().atMost(Duration.ofSeconds(40)).until(() -> lines().stream()
                .filter(l -> l[0].equals("START") && l[3].equals("regular") && Long.parseLong(l[1]) > fireTimeMillis)
                .count() >= runs);
    }

    private long count(int node, String kind) {
        return nodes.count(node, kind);
    }

    private List<String[]> lines() {
        return nodes.lines();
    }

    /**
     * The checker: from the first node's first run (the job's first) to the last regular run anywhere, every fire
     * time has exactly one START or one MISSED in all ledgers together; no fire time has more than one anywhere;
     * the fire times of every outage lie inside that range.
     */
    private void judge(List<long[]> outages) {
        long first = nodes.lines(1).stream().filter(l -> l[0].equals("START")).mapToLong(l -> Long.parseLong(l[1]))
                .findFirst().orElseThrow();
        Map<Long, List<String>> settled = new TreeMap<>();
        long lastRegular = Long.MIN_VALUE;
        for (String[] line : lines()) {
            if (line[0].equals("START") || line[0].equals("MISSED")) {
                settled.computeIfAbsent(Long.parseLong(line[1]), t -> new ArrayList<>()).add(String.join(" ", line));
            }
            if (line[0].equals("START") && line[3].equals("regular")) {
                lastRegular = Math.max(lastRegular, Long.parseLong(line[1]));
            }
        }
        String ledgers = describe();
        settled.forEach((t, what) -> assertThat(what).as("fire time %d in %s", t, ledgers).hasSizeLessThanOrEqualTo(1));
        for (long t = first; t <= lastRegular; t += 1000) {
            assertThat(settled.getOrDefault(t, List.of())).as("fire time %d (judged %d to %d) in %s", t, first,
                    lastRegular, ledgers).hasSize(1);
        }
        for (long[] outage : outages) {
            long during = 0;
            for (long t = outage[0] + 1000; t <= outage[1]; t += 1000) {
                during++;
                assertThat(t).as("an outage's fire time is judged").isBetween(first, lastRegular);
                // RUN_ALL with catch-up-max 50: nobody was up to fire it, so it ran late, as a catch-up
                assertThat(settled.get(t)).as("fire time %d of an outage in %s", t, ledgers)
                        .singleElement().asString().startsWith("START ").contains(" catch-up ");
            }
            assertThat(during).as("fire times no node was up to run").isGreaterThanOrEqualTo(3);
        }
    }

    private String describe() {
        return nodes.describe();
    }
}
