package io.jobguard.spring.it;

import io.jobguard.micrometer.MetricNames;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scenario ShedLock fails: three nodes whose clocks read −2 s, 0 and +3 s run an every-second
 * job for 20+ fire times. Each fire time must run exactly once, none missed while nodes are up.
 */
@WithRedis
class ClockSkewIT {

    private static final int FIRE_TIMES = 21;

    @BeforeEach
    void clearLog() {
        SkewApp.LOG.clear();
    }

    @Test
    void cronFireTimesRunOnceEachAcrossSkewedThreadPoolSchedulers(RedisServerProcess redis) {
        runScenario(redis, "cron", "pool", "skew-cron", nodes -> { });
    }

    @Test
    void fixedRateFireTimesAreAlignedAndRunOnceEachAcrossSkewedNodes(RedisServerProcess redis) {
        runScenario(redis, "rate", "pool", "skew-rate", nodes -> { });
        assertThat(SkewApp.LOG.byFireTime().keySet())
                .allSatisfy(t -> assertThat(t.toEpochMilli() % 1000).as("fixed-rate fire time %s on the 1 s grid", t)
                        .isZero());
    }

    /** Virtual threads exist from JDK 21; on JDK 17 Boot's scheduler is a ThreadPoolTaskScheduler. */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void cronFireTimesRunOnceEachOnBootsVirtualThreadScheduler(RedisServerProcess redis) {
        runScenario(redis, "cron", "boot", "skew-cron", nodes -> assertThat(nodes.get(0)
                .getBean(org.springframework.scheduling.TaskScheduler.class))
                .isInstanceOf(org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler.class));
        assertThat(SkewApp.LOG.runs()).allSatisfy(run -> assertThat(run.thread()).startsWith("VirtualThread"));
    }

    private void runScenario(RedisServerProcess redis, String job, String scheduler, String jobName,
                             Consumer<List<ConfigurableApplicationContext>> extraChecks) {
        List<List<String>> props = new ArrayList<>();
        long[] offsets = {-2000, 0, 3000};
        for (int i = 0; i < offsets.length; i++) {
            props.add(List.of("jobguard.node-id=node-" + i, "jobguard.namespace=skew-" + job + "-" + scheduler,
                    "test.clock-offset-ms=" + offsets[i], "test.job=" + job, "test.scheduler=" + scheduler,
                    "spring.threads.virtual.enabled=" + scheduler.equals("boot")));
        }
        try (Nodes nodes = Nodes.start(redis, SkewApp.class, props)) {
            // the window starts once every node is up and warm (3 s past startup by the fastest clock, +3 s)
            Instant allUp = Instant.now().plusSeconds(6).truncatedTo(ChronoUnit.SECONDS);
            await().atMost(Duration.ofSeconds(60)).until(() -> SkewApp.LOG.byFireTime().keySet().stream()
                    .filter(t -> !t.isBefore(allUp)).count() > FIRE_TIMES);
            long ranCounted = 0;
            long alreadyRan = 0;
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                MeterRegistry meters = node.getBean(MeterRegistry.class);
                ranCounted += count(meters, jobName, "RAN");
                alreadyRan += count(meters, jobName, "ALREADY_RAN");
            }
            Map<Instant, List<String>> byFireTime = SkewApp.LOG.byFireTime();
            assertThat(byFireTime).allSatisfy((t, ranOn) -> assertThat(ranOn).as("nodes that ran %s", t).hasSize(1));
            List<Instant> times = byFireTime.keySet().stream().filter(t -> !t.isBefore(allUp)).toList();
            Instant last = times.get(times.size() - 1);
            for (Instant t = allUp; !t.isAfter(last); t = t.plusSeconds(1)) {
                assertThat(byFireTime).as("fire time %s ran (decisions: %s)", t, SkewApp.LOG.decisionsFor(t))
                        .containsKey(t);
            }
            assertThat(times.size()).isGreaterThanOrEqualTo(FIRE_TIMES);
            // counters lag the log by at most the run in flight on each node
            assertThat(ranCounted).isBetween((long) SkewApp.LOG.runs().size() - 3, (long) SkewApp.LOG.runs().size());
            assertThat(alreadyRan).as("other nodes saw the fire times taken").isPositive();
            extraChecks.accept(nodes.contexts());
        }
    }

    private static long count(MeterRegistry meters, String job, String outcome) {
        var counter = meters.find(MetricNames.JOB_RUNS).tags(MetricNames.TAG_JOB, job, MetricNames.TAG_OUTCOME, outcome)
                .counter();
        return counter == null ? 0 : (long) counter.count();
    }
}
