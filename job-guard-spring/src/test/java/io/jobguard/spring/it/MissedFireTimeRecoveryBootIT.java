package io.jobguard.spring.it;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Missed fire times through Boot: every node of an every-2-seconds {@code RUN_ALL} cron job is down across
 * at least 3 fire times; when two nodes with skewed clocks come back, each missed fire time runs
 * once in the cluster, late, as a catch-up, and the regular fire times go on.
 */
@WithRedis
class MissedFireTimeRecoveryBootIT {

    private static List<String> props(String node, long offset) {
        return List.of("jobguard.node-id=" + node, "jobguard.namespace=recovery", "test.clock-offset-ms=" + offset,
                "jobguard.skew-tolerance=1s");
    }

    @Test
    void fireTimesMissedWhileEveryNodeWasDownRunOnceEachWhenTheNodesComeBack(RedisServerProcess redis) {
        RecoveryApp.RUNS.clear();
        Instant lastBefore;
        try (Nodes first = Nodes.start(redis, RecoveryApp.class, List.of(props("a", 300)))) {
            assertThat(first.contexts()).hasSize(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> !RecoveryApp.RUNS.isEmpty());
            lastBefore = RecoveryApp.RUNS.get(RecoveryApp.RUNS.size() - 1).fireTime();
        }
        // every node is down across at least 3 fire times
        Instant downUntil = Instant.now().plusSeconds(7);
        await().pollInterval(Duration.ofMillis(200)).atMost(Duration.ofSeconds(20))
                .until(() -> Instant.now().isAfter(downUntil));
        Instant restart = Instant.now();
        try (Nodes again = Nodes.start(redis, RecoveryApp.class, List.of(props("a", 300), props("b", -300)))) {
            assertThat(again.contexts()).hasSize(2);
            Instant until = restart.plusSeconds(8);
            await().atMost(Duration.ofSeconds(60)).until(() -> RecoveryApp.RUNS.stream()
                    .anyMatch(r -> !r.catchUp() && r.fireTime().isAfter(until)));
        }
        List<StartedRun> runs = List.copyOf(RecoveryApp.RUNS);
        Map<Instant, Long> perFireTime = runs.stream()
                .collect(Collectors.groupingBy(StartedRun::fireTime, Collectors.counting()));
        assertThat(perFireTime).as("runs per fire time: %s", runs).allSatisfy((t, n) -> assertThat(n).isEqualTo(1L));
        // the fire times nobody fired (the outage and the nodes' start) ran late, in order, as catch-ups
        Instant firstAfter = runs.stream().filter(r -> !r.catchUp() && r.fireTime().isAfter(restart))
                .map(StartedRun::fireTime).min(Instant::compareTo).orElseThrow();
        List<Instant> missed = runs.stream().filter(StartedRun::catchUp).map(StartedRun::fireTime).toList();
        assertThat(missed).as("caught up: %s", runs).hasSizeGreaterThanOrEqualTo(3).isSorted()
                .allSatisfy(t -> assertThat(t).isAfter(lastBefore).isBefore(firstAfter));
        // no fire time between the last run before and the first regular run after the outage is lost
        Map<Instant, StartedRun> byTime = runs.stream()
                .collect(Collectors.toMap(StartedRun::fireTime, Function.identity()));
        for (Instant t = lastBefore; !t.isAfter(firstAfter); t = t.plusSeconds(2)) {
            assertThat(byTime).as("fire time %s in %s", t, runs).containsKey(t);
        }
    }
}
