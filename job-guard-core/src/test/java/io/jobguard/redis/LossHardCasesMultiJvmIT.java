package io.jobguard.redis;

import io.jobguard.JobGuardConfig;
import io.jobguard.recovery.RestartingNode;
import io.jobguard.recovery.RestartingNodes;
import io.jobguard.testing.LongSuite;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.TcpProxy;
import io.jobguard.testing.WithRedis;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The hard cases of judging fire times after Redis lost its data (docs/reliability.md §2) with every node in its own
 * JVM ({@link RestartingNode}, job-guard's defaults: {@code skew-tolerance} 5 min, an every-second {@code RETURN}
 * job fired through {@code JobGuard.admit}) on the class's own redis-server, which the tests flush, stop and start
 * again empty. Each node appends what it ran (fire time, fencing token, node) and every outcome it heard
 * ({@code HISTORY_LOST} among them) to its own ledger; the checker below reads only the ledgers and the times the
 * test itself took (when Redis lost its data, when it accepted writes again, when a node was killed).
 *
 * <p>In every case no fire time starts twice across all ledgers, and no fire time that the node running furthest
 * ahead may have run before the loss (up to its clock offset past the moment it stopped) starts after the loss.
 *
 * <p>{@code mvn verify} runs the first case; the other three are in the long suite ({@link LongSuite}). In one JVM,
 * {@code mvn verify} runs the clock step and the restart of every node ({@link FleetLeadsIT}) and a node started
 * after the loss ({@link MeasuredLossWindowIT}).
 */
@WithRedis
class LossHardCasesMultiJvmIT {

    private static final long TOLERANCE = JobGuardConfig.builder().build().skewTolerance().toMillis();

    private final RedisServerProcess redis;
    private RestartingNodes nodes;
    private String job;
    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed test keeps its ledgers and the nodes' logs
    Path dir;

    LossHardCasesMultiJvmIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void harness() {
        nodes = new RestartingNodes(redis.port(), dir, 3);
        job = "loss-" + System.nanoTime();
    }

    @AfterEach
    void stopNodes() {
        nodes.close();
        redis.ensureRunning();
    }

    /**
     * n1 (−2 s) and n2 (0) run; n3 joins 4 s ahead, runs one fire time (it publishes its larger lead and waits until
     * the others have read it) and is SIGKILLed; FLUSHALL right after. The fire times n3 may have run are refused
     * after the loss; the first run after it comes within one period + 1 s (+ 0.5 s for a loaded machine) of the
     * first fire time the judged window lets run: Redis back + 500 ms (the leads hash's re-creation, U) + n3's lead
     * (4 s) + 250 ms.
     */
    @Test
    void aNodeThatJoinedJustBeforeTheLossAndWasKilledIsKnownToTheOthers() throws Exception {
        start(0, -2000);
        start(1, 0);
        await().atMost(Duration.ofSeconds(40)).until(() -> nodes.count(1, "START") >= 3);
        start(2, 4000);
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(10))
                .until(() -> nodes.count(2, "START") >= 1);
        nodes.kill(2);
        long killed = System.currentTimeMillis();
        redis.flushAll();
        long back = System.currentTimeMillis();
        awaitOrShow(() -> runs(r -> r.wall > back).size() >= 3);
        nodes.stop(0);
        nodes.stop(1);

        String ledgers = nodes.describe();
        noFireTimeRanTwice(ledgers);
        noRunAfterTheLossOfAFireTimeUpTo(reachOfKilled("n3", killed, 4000), back, ledgers);
        tokensAfterTheLossAboveEveryTokenBefore(killed, back, ledgers);
        Run first = runs(r -> r.wall > back).get(0);
        long firstAllowed = back + 500 + 4000 + 250;
        System.out.printf("[measure] joined-then-killed: n3 ran %s; first run after the loss %s, %d ms after Redis "
                + "accepted writes again (%d ms after the first fire time the window allows at the latest)%n",
                runs(r -> r.node.equals("n3")), first, first.wall - back, first.wall - firstAllowed);
        assertThat(first.wall).as("first run after the loss in %s", ledgers).isLessThanOrEqualTo(firstAllowed + 2500);
    }

    /**
     * n1 (−2 s), n2 (0) and n3 (+3 s) run; n3, the leading node, is SIGKILLed and Redis stopped right after; n2 is
     * restarted (SIGTERM, started again) while Redis is down; Redis comes back empty. n2, with no memory of the
     * fleet, refuses with {@code skew-tolerance}: it runs nothing, and it refuses fire times that n1, which knew the
     * fleet, runs with the judged window (n2's clock is 2 s ahead of n1's, so n2 tries each fire time first).
     *
     * <p>The restarted n2 talks to Redis through a proxy that refuses it until n1 has re-created the leads hash and
     * marked it {@code lost}: the case is a node without memory that meets a marked loss. A node without memory that
     * reaches the empty Redis before every node that knew the fleet (n1's client was still reconnecting) creates the
     * lineage {@code new} and takes the job for a new one; nothing it can read tells the loss from a first deployment
     * (docs/reliability.md §2, "Not covered").
     */
    @Test
    @LongSuite
    void aNodeRestartedDuringTheOutageKeepsSkewToleranceWhileTheOthersJudge() throws Exception {
        start(0, -2000);
        start(1, 0);
        start(2, 3000);
        await().atMost(Duration.ofSeconds(40)).until(() -> nodes.count(2, "START") >= 3);
        nodes.kill(2);
        long killed = System.currentTimeMillis();
        redis.stop();
        nodes.stop(1);
        try (TcpProxy late = TcpProxy.start(redis.host(), redis.port())) {
            late.refuseNewLinks(true);
            nodes.route(1, late.port());
            start(1, 0);
            await().atMost(Duration.ofSeconds(40)).until(() -> nodes.count(1, "READY") >= 2);
            redis.restart();
            long back = System.currentTimeMillis();
            awaitOrShow(() -> String.valueOf(redis.call("HGET", "jgrestart:leads", "~lineage")).endsWith("|lost"));
            late.refuseNewLinks(false);
            // n1 judges with n3's lead: it runs from the leads hash's re-creation + 3.25 s at the latest
            awaitOrShow(() -> heard("n1", back + 7000));
            nodes.stop(0);
            nodes.stop(1);

            String ledgers = nodes.describe();
            noFireTimeRanTwice(ledgers);
            noRunAfterTheLossOfAFireTimeUpTo(reachOfKilled("n3", killed, 3000), back, ledgers);
            assertThat(runs(r -> r.wall > back && r.node.equals("n2")))
                    .as("the restarted n2 ran nothing in %s", ledgers).isEmpty();
            List<Long> refusedByN2 = refusals("HISTORY_LOST", "n2", back);
            List<Run> judgedByN1 = runs(r -> r.wall > back && r.node.equals("n1"));
            System.out.printf("[measure] restarted-during-outage: n2 refused %s; n1 ran %s (Redis back at %d)%n",
                    refusedByN2, judgedByN1, back);
            assertThat(judgedByN1).as("n2 refused a fire time n1 then ran, in %s", ledgers)
                    .anyMatch(r -> refusedByN2.contains(r.fire));
        }
    }

    /**
     * n1 (−2 s), n2 (0) and n3 (+3 s) run; Redis restarts empty; once a node that read the fleet before the loss has
     * published into the re-created leads hash (its lineage reads {@code lost}), every node is SIGTERMed and started
     * again. No node remembers the fleet or the job: all refuse with {@code skew-tolerance} and nothing runs.
     *
     * <p>Not covered, and not tested here: every node stopping before any of them published after Redis returned. The
     * lineage is then {@code new}, the restarted nodes take the job for a new one, and a run of this test that
     * SIGTERMed the nodes right after Redis restarted saw a fire time that n3 had run before the loss run again on the
     * restarted n2 (docs/reliability.md §2).
     */
    @Test
    @LongSuite
    void nodesThatAllRestartAfterTheLossRunNothingTheLeadingNodeMayHaveRun() throws Exception {
        start(0, -2000);
        start(1, 0);
        start(2, 3000);
        await().atMost(Duration.ofSeconds(40)).until(() -> nodes.count(2, "START") >= 3);
        long lost = System.currentTimeMillis();
        redis.restart();
        long back = System.currentTimeMillis();
        awaitOrShow(() -> String.valueOf(redis.call("HGET", "jgrestart:leads", "~lineage")).endsWith("|lost"));
        for (int i = 0; i < 3; i++) {
            nodes.stop(i);
        }
        for (int i = 0; i < 3; i++) {
            start(i, new long[] {-2000, 0, 3000}[i]);
        }
        long restarted = System.currentTimeMillis();
        awaitOrShow(() -> {
            for (String node : List.of("n1", "n2", "n3")) {
                if (!heard(node, restarted + 4000)) {
                    return false;
                }
            }
            return true;
        });
        for (int i = 0; i < 3; i++) {
            nodes.stop(i);
        }

        String ledgers = nodes.describe();
        noFireTimeRanTwice(ledgers);
        noRunAfterTheLossOfAFireTimeUpTo(lost + 3000, back, ledgers);
        System.out.printf("[measure] all-restarted: runs after Redis came back %s; refusals after the restarts "
                + "n1 %s, n2 %s, n3 %s%n", runs(r -> r.wall > back), refusals("HISTORY_LOST", "n1", restarted),
                refusals("HISTORY_LOST", "n2", restarted), refusals("HISTORY_LOST", "n3", restarted));
        assertThat(runs(r -> r.wall > restarted)).as("restarted nodes know nothing: skew-tolerance, in %s", ledgers)
                .isEmpty();
        for (String node : List.of("n1", "n2", "n3")) {
            assertThat(refusals("HISTORY_LOST", node, restarted)).as("%s refused in %s", node, ledgers).isNotEmpty();
        }
    }

    /**
     * n1 (−2 s) and n2 (0) run; n2's clocks step 3 s forward (more than its measured lead, about 0); n2 runs a fire
     * time 3 s ahead and is SIGKILLed; FLUSHALL right after. n1 keeps {@code skew-tolerance}: it runs nothing and
     * refuses fire times past every fire time n2 may have run.
     */
    @Test
    @LongSuite
    void aClockStepJustBeforeTheLossKeepsSkewTolerance() throws Exception {
        Path step = dir.resolve("n2.step");
        start(0, -2000);
        nodes.start(1, 0, TOLERANCE, job, "NONE", "0", step.toString());
        await().atMost(Duration.ofSeconds(40)).until(() -> nodes.count(1, "START") >= 3);
        long stepped = System.currentTimeMillis();
        Files.writeString(step, "3000", StandardCharsets.UTF_8);
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(10))
                .until(() -> !runs(r -> r.node.equals("n2") && r.fire >= stepped + 2500).isEmpty());
        nodes.kill(1);
        long killed = System.currentTimeMillis();
        redis.flushAll();
        long back = System.currentTimeMillis();
        long reach = killed + 3000;
        awaitOrShow(() -> heard("n1", reach + 2000));
        nodes.stop(0);

        String ledgers = nodes.describe();
        noFireTimeRanTwice(ledgers);
        System.out.printf("[measure] clock-step: n2 ran %s; n1 refused after the loss %s%n",
                runs(r -> r.node.equals("n2") && r.fire >= stepped), refusals("HISTORY_LOST", "n1", back));
        assertThat(runs(r -> r.wall > back)).as("n1 keeps skew-tolerance in %s", ledgers).isEmpty();
        assertThat(refusals("HISTORY_LOST", "n1", back)).as("in %s", ledgers).anyMatch(t -> t > reach + 1000);
    }

    /** Waits up to 40 s for the condition; on time-out fails with every ledger. */
    private void awaitOrShow(Callable<Boolean> condition) {
        try {
            await().atMost(Duration.ofSeconds(40)).until(condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + " in " + nodes.describe(), e);
        }
    }

    private void start(int node, long clockMillis) {
        nodes.start(node, clockMillis, TOLERANCE, job, "NONE", "0");
    }

    /** One START line: fire time, node, fencing token, and the system time it started at. */
    private record Run(long fire, String node, long token, long wall) {
        @Override
        public String toString() {
            return fire + "/" + node + "/token " + token + "/at " + wall;
        }
    }

    /** Every run in every ledger that matches, by the time it started. */
    private List<Run> runs(Predicate<Run> filter) {
        List<Run> runs = new ArrayList<>();
        for (String[] l : nodes.lines()) {
            if (l[0].equals("START")) {
                Run run = new Run(Long.parseLong(l[1]), l[2], Long.parseLong(l[4]), Long.parseLong(l[5]));
                if (filter.test(run)) {
                    runs.add(run);
                }
            }
        }
        runs.sort((a, b) -> Long.compare(a.wall, b.wall));
        return runs;
    }

    /** Whether {@code node} heard an outcome (ran or refused) for a fire time at or after {@code fireTime}. */
    private boolean heard(String node, long fireTime) {
        return nodes.lines().stream().anyMatch(l -> l.length == 5 && l[2].equals(node) && Long.parseLong(l[1]) >= fireTime);
    }

    /** The fire times {@code node} heard {@code outcome} for at or after {@code since} (system time). */
    private List<Long> refusals(String outcome, String node, long since) {
        return nodes.lines().stream().filter(l -> l[0].equals(outcome) && l[2].equals(node)
                && Long.parseLong(l[4]) >= since).map(l -> Long.parseLong(l[1])).toList();
    }

    private void noFireTimeRanTwice(String ledgers) {
        Map<Long, List<Run>> byFireTime = new TreeMap<>();
        runs(r -> true).forEach(r -> byFireTime.computeIfAbsent(r.fire, t -> new ArrayList<>()).add(r));
        byFireTime.forEach((t, runs) -> assertThat(runs).as("fire time %d in %s", t, ledgers).hasSize(1));
    }

    /**
     * The latest fire time a node SIGKILLed before {@code killed} may have taken: the fire time of its last run when the
     * kill came while that run's body still ran (its one scheduler thread takes no other fire time meanwhile), else any
     * fire time its clock, {@code clockMillis} ahead, had reached.
     */
    private long reachOfKilled(String node, long killed, long clockMillis) {
        Run last = runs(r -> r.node.equals(node)).stream().max(Comparator.comparingLong(Run::wall)).orElse(null);
        if (last != null && killed < last.wall + RestartingNode.PLAIN_BODY_MILLIS) {
            return last.fire;
        }
        return killed + clockMillis;
    }

    /** No run that started after Redis accepted writes again has a fire time the stopped leading node may have run. */
    private void noRunAfterTheLossOfAFireTimeUpTo(long reach, long back, String ledgers) {
        assertThat(runs(r -> r.wall > back && r.fire <= reach)).as("runs after the loss of fire times up to %d in %s",
                reach, ledgers).isEmpty();
    }

    private void tokensAfterTheLossAboveEveryTokenBefore(long before, long back, String ledgers) {
        long highestBefore = runs(r -> r.wall <= before).stream().mapToLong(Run::token).max().orElseThrow();
        assertThat(runs(r -> r.wall > back)).as("runs after the loss in %s", ledgers).isNotEmpty()
                .allSatisfy(r -> assertThat(r.token).as("token of %s", r).isGreaterThan(highestBefore));
    }
}
