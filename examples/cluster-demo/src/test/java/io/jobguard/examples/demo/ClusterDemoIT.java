package io.jobguard.examples.demo;

import io.jobguard.examples.support.RunLedger;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo in short form, so a broken demo fails the build: three nodes of the demo app (in one
 * JVM) with scheduler clocks at −2 s, 0 and +3 s; every fire time of the every-second job runs
 * exactly once, no job runs a fire time twice, and orders get their SKUs batch-locked.
 */
@WithRedis
class ClusterDemoIT {

    private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        nodes.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void skewedNodesRunEachFireTimeExactlyOnce(RedisServerProcess redis) {
        String[][] nodeOffsets = {{"node-A", "-2s"}, {"node-B", "0s"}, {"node-C", "3s"}};
        for (String[] node : nodeOffsets) {
            nodes.add(new SpringApplicationBuilder(DemoApplication.class).properties(
                    "server.port=0", "demo.node=" + node[0], "demo.clock-offset=" + node[1],
                    "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port()).run());
        }
        // the window starts well after startup: the seconds right after three Boot contexts start in one
        // JVM on two cores are the least representative of a cluster of separate machines
        Instant from = Instant.now().plusSeconds(7).truncatedTo(ChronoUnit.SECONDS);
        Instant to = from.plusSeconds(6);
        RedisLists lists = new RedisLists("127.0.0.1", redis.port());
        // T = to + 6 s runs on the fastest node (clock +3 s) at real time to + 3 s, after the slowest
        // node (clock -2 s) has fired `to` (at real time to + 2 s)
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250))
                .until(() -> RunLedger.of(lists.range(DemoKeys.EVERY_SECOND)).runs().containsKey(to.plusSeconds(6)));

        RunLedger everySecond = RunLedger.of(lists.range(DemoKeys.EVERY_SECOND));
        RunLedger overrunning = RunLedger.of(lists.range(DemoKeys.OVERRUNNING));
        assertThat(everySecond.duplicates()).as(everySecond.table(from, to, Duration.ofSeconds(1))).isEmpty();
        assertThat(everySecond.misses(from, to, Duration.ofSeconds(1)))
                .as(everySecond.table(from, to, Duration.ofSeconds(1))).isEmpty();
        assertThat(overrunning.duplicates()).isEmpty();
        assertThat(overrunning.runs()).isNotEmpty();
        assertThat(Long.parseLong(lists.get(DemoKeys.ACQUIRED))).isPositive();
    }
}
