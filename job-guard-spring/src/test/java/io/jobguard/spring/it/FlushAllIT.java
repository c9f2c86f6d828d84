package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 16's FLUSHALL row through Boot: three nodes whose clocks read −2 s, 0 and +3 s run an
 * every-second job; Redis is flushed while they run. The node ahead has already run the fire times
 * the nodes behind are about to fire, and the flush took their markers: before issue 16 those ran
 * a second time and the fencing tokens restarted at 1. Now no fire time runs twice (the ones that
 * may have run before the flush are HISTORY_LOST) and every run after the flush has a higher token
 * than every run before it. With job-guard's defaults the refusal ends at the fleet's largest lead (3 s here), which
 * every node holds in memory, not at {@code skew-tolerance} (5 min).
 */
@WithRedis
class FlushAllIT {

    /** The default window (skew tolerance, 5 min): the nodes keep job-guard's defaults; the judged one is far shorter. */
    private static final Duration SKEW = Duration.ofMinutes(5);

    /** One run: its token, when it started ({@code System.nanoTime()}), its node. */
    private record Ran(long fence, long atNanos, String node) {
    }

    @BeforeEach
    void clearLog() {
        SkewApp.LOG.clear();
    }

    /**
     * A node's properties: its clock offset; job-guard's defaults otherwise (skew tolerance 5 min, checks every minute),
     * but for the fleet spread, off: these cases need every node, the one whose clock leads above all, to take fire
     * times of the job (with the spread on only its assigned node does, and the window argument is the same).
     */
    private static List<String> node(int i, long offsetMillis) {
        return List.of("jobguard.node-id=flush-" + i, "jobguard.namespace=flush", "test.job=cron",
                "test.clock-offset-ms=" + offsetMillis, "jobguard.spread.enabled=false");
    }

    private static void record(Nodes nodes, List<Ran> ran) {
        for (ConfigurableApplicationContext node : nodes.contexts()) {
            node.getBean(JobGuard.class).addListener(e -> {
                if (e.outcome() == RunOutcome.RAN) {
                    ran.add(new Ran(e.fencingToken(), System.nanoTime() - e.runTime().toNanos(), e.nodeId()));
                }
            });
        }
    }

    @Test
    void aFlushWhileSkewedNodesRunLetsNoFireTimeRunTwiceAndTokensKeepGrowing(RedisServerProcess redis) {
        List<Ran> ran = new CopyOnWriteArrayList<>();
        try (Nodes nodes = Nodes.start(redis, SkewApp.class, List.of(node(0, -2000), node(1, 0), node(2, 3000)))) {
            record(nodes, ran);
            await().atMost(Duration.ofSeconds(60)).until(() -> ran.size() >= 6);
            flushAndCheck(redis, ran);
        }
    }

    /**
     * The case that sank the first measured window: the node 3 s ahead joins just before the flush, after the
     * others' last look at the fleet, so they know only leads of 0 and below. They must not narrow the window
     * to those: until every live node re-published after the loss they keep the configured one, and then the
     * joiner's 3 s.
     */
    @Test
    void aNodeWithALargerLeadJoiningUnseenJustBeforeTheFlushRunsNoFireTimeTwice(RedisServerProcess redis) {
        List<Ran> ran = new CopyOnWriteArrayList<>();
        try (Nodes first = Nodes.start(redis, SkewApp.class, List.of(node(0, -2000), node(1, 0)))) {
            record(first, ran);
            await().atMost(Duration.ofSeconds(60)).until(() -> ran.size() >= 3);
            try (Nodes joiner = Nodes.start(redis, SkewApp.class, List.of(node(2, 3000)))) {
                record(joiner, ran);
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> ran.stream().filter(r -> r.node().equals("flush-2")).count() >= 2);
                flushAndCheck(redis, ran);
            }
        }
    }

    private static void flushAndCheck(RedisServerProcess redis, List<Ran> ran) {
        long flushed = System.nanoTime();
        Instant flushedAt = Instant.now();
        redis.flushAll();
        await().atMost(Duration.ofSeconds(60)).until(() -> ran.stream().filter(r -> r.atNanos() > flushed).count() >= 6);

        Map<Instant, List<String>> byFireTime = SkewApp.LOG.byFireTime();
        assertThat(byFireTime).allSatisfy((t, on) -> assertThat(on).as("nodes that ran %s (decisions %s)", t,
                SkewApp.LOG.decisionsFor(t)).hasSize(1));
        assertThat(SkewApp.LOG.decisions()).as("fire times refused after the flush")
                .anySatisfy(d -> assertThat(d).contains(" HISTORY_LOST at "));
        long before = ran.stream().filter(r -> r.atNanos() < flushed).mapToLong(Ran::fence).max().orElseThrow();
        long after = ran.stream().filter(r -> r.atNanos() > flushed).mapToLong(Ran::fence).min().orElseThrow();
        assertThat(after).as("lowest token after the flush vs highest before").isGreaterThan(before);
        // the first run after the loss within one period (1 s) + 1 s (+ 0.5 s for a loaded machine): the firing after
        // the flush learns of the loss and is judged once the fleet re-published its leads (500 ms)
        long firstAfter = ran.stream().mapToLong(Ran::atNanos).filter(t -> t > flushed).min().orElseThrow();
        assertThat(Duration.ofNanos(firstAfter - flushed)).as("first run after the flush")
                .isLessThanOrEqualTo(Duration.ofMillis(2500));
        // the measured window (the largest lead, 3 s, + 250 ms) ends before the configured 10 s: a fire time
        // between them ran (before the measured window, all of them were refused)
        assertThat(byFireTime.keySet()).as("fire times run after the flush + the measured lead, inside the configured %s",
                SKEW).anySatisfy(t -> assertThat(t).isBetween(flushedAt.plusMillis(4500), flushedAt.plus(SKEW).minusMillis(500)));
    }
}
