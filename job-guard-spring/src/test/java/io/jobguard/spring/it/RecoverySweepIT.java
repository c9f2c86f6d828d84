package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Recovery through Boot, Redis stopped at a fire time: both nodes get STORE_ERROR for it; Redis comes
 * back (with its data). The job fires every 10 s with an 8 s catch-up window, so its next firing
 * would find that fire time too old: the background recovery pass, which wakes once the fire time
 * is settled, catches it up, once in the cluster.
 */
@WithRedis
class RecoverySweepIT {

    private static List<String> props(String node, long offset) {
        return List.of("jobguard.node-id=" + node, "jobguard.namespace=sweep", "test.clock-offset-ms=" + offset,
                "jobguard.skew-tolerance=3s", "jobguard.catch-up-window=8s", "spring.data.redis.timeout=1s",
                "test.cron=*/10 * * * * *");
    }

    @Test
    void aFireTimeEveryNodeSkippedBecauseRedisWasDownIsCaughtUpOnceByTheBackgroundPass(RedisServerProcess redis) {
        RecoveryApp.RUNS.clear();
        List<JobEvent> events = new CopyOnWriteArrayList<>();
        try (Nodes nodes = Nodes.start(redis, RecoveryApp.class, List.of(props("a", 300), props("b", -300)))) {
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                node.getBean(JobGuard.class).addListener(events::add);
            }
            await().atMost(Duration.ofSeconds(40)).until(() -> !RecoveryApp.RUNS.isEmpty());
            Instant t0 = RecoveryApp.RUNS.get(0).fireTime();
            Instant t = t0.plusSeconds(10);
            redis.call("SAVE");
            redis.stop();
            await().atMost(Duration.ofSeconds(30)).until(() -> events.stream()
                    .filter(e -> e.outcome() == RunOutcome.STORE_ERROR && e.nominalFireTime().equals(t)).count() == 2);
            redis.restart();
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                        .until(() -> node.getBean(JobGuard.class).measureClockSkew() != null);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> RecoveryApp.RUNS.stream()
                    .anyMatch(r -> r.fireTime().equals(t)));
            // let the next fire time pass: t is not run again
            await().atMost(Duration.ofSeconds(30)).until(() -> RecoveryApp.RUNS.stream()
                    .anyMatch(r -> r.fireTime().equals(t.plusSeconds(10))));
        }
        List<StartedRun> ofT = RecoveryApp.RUNS.stream()
                .filter(r -> r.fireTime().equals(RecoveryApp.RUNS.get(0).fireTime().plusSeconds(10))).toList();
        assertThat(ofT).as("runs of the fire time Redis was down at: %s", RecoveryApp.RUNS).hasSize(1);
        assertThat(ofT.get(0).catchUp()).isTrue();
    }
}
