package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
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
 * than every run before it.
 */
@WithRedis
class FlushAllIT {

    private record Ran(long fence, long atNanos) {
    }

    @BeforeEach
    void clearLog() {
        SkewApp.LOG.clear();
    }

    @Test
    void aFlushWhileSkewedNodesRunLetsNoFireTimeRunTwiceAndTokensKeepGrowing(RedisServerProcess redis) {
        List<List<String>> props = new ArrayList<>();
        long[] offsets = {-2000, 0, 3000};
        for (int i = 0; i < offsets.length; i++) {
            props.add(List.of("jobguard.node-id=flush-" + i, "jobguard.namespace=flush", "test.job=cron",
                    "test.clock-offset-ms=" + offsets[i], "jobguard.skew-tolerance=4s"));
        }
        List<Ran> ran = new CopyOnWriteArrayList<>();
        try (Nodes nodes = Nodes.start(redis, SkewApp.class, props)) {
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                node.getBean(JobGuard.class).addListener(e -> {
                    if (e.outcome() == RunOutcome.RAN) {
                        ran.add(new Ran(e.fencingToken(), System.nanoTime()));
                    }
                });
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> ran.size() >= 6);

            long flushed = System.nanoTime();
            redis.flushAll();
            await().atMost(Duration.ofSeconds(60)).until(() -> ran.stream().filter(r -> r.atNanos() > flushed).count() >= 6);

            Map<java.time.Instant, List<String>> byFireTime = SkewApp.LOG.byFireTime();
            assertThat(byFireTime).allSatisfy((t, on) -> assertThat(on).as("nodes that ran %s (decisions %s)", t,
                    SkewApp.LOG.decisionsFor(t)).hasSize(1));
            assertThat(SkewApp.LOG.decisions()).as("fire times refused after the flush")
                    .anySatisfy(d -> assertThat(d).contains(" HISTORY_LOST at "));
            long before = ran.stream().filter(r -> r.atNanos() < flushed).mapToLong(Ran::fence).max().orElseThrow();
            long after = ran.stream().filter(r -> r.atNanos() > flushed).mapToLong(Ran::fence).min().orElseThrow();
            assertThat(after).as("lowest token after the flush vs highest before").isGreaterThan(before);
        }
    }
}
