package io.jobguard.spring.it;

import io.jobguard.micrometer.MetricNames;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.testing.LongSuite;
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
 *
 * <p>{@code mvn verify} runs the cron job on thread-pool schedulers and the lagging node alone; the fixed-rate job,
 * the qualified scheduler and the virtual-thread scheduler are in the long suite ({@link LongSuite}). The JDK 25 step
 * of {@code .ci/run} names this class and runs all of it.
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
    @LongSuite
    void fixedRateFireTimesAreAlignedAndRunOnceEachAcrossSkewedNodes(RedisServerProcess redis) {
        runScenario(redis, "rate", "pool", "skew-rate", nodes -> { });
        assertThat(SkewApp.LOG.byFireTime().keySet())
                .allSatisfy(t -> assertThat(t.toEpochMilli() % 1000).as("fixed-rate fire time %s on the 1 s grid", t)
                        .isZero());
    }

    /** Virtual threads exist from JDK 21; on JDK 17 Boot's scheduler is a ThreadPoolTaskScheduler. */
    @Test
    @LongSuite
    @EnabledForJreRange(min = JRE.JAVA_21)
    void cronFireTimesRunOnceEachOnBootsVirtualThreadScheduler(RedisServerProcess redis) {
        runScenario(redis, "cron", "boot", "skew-cron", nodes -> assertThat(nodes.get(0)
                .getBean(org.springframework.scheduling.TaskScheduler.class))
                .isInstanceOf(org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler.class));
        assertThat(SkewApp.LOG.runs()).allSatisfy(run -> assertThat(run.thread()).startsWith("VirtualThread"));
    }

    /**
     * One node alone whose scheduler clock is 2 s behind: every fire time of an every-second cron job
     * runs. Fire times must be computed on the clock of the scheduler that runs the task (here the
     * application's {@code ThreadPoolTaskScheduler}, reached through Spring's scheduler router), not on
     * the router's system clock, or the node's firings land 2 s late and it runs only every third second.
     */
    @Test
    void aLaggingNodeAloneRunsEveryCronFireTime(RedisServerProcess redis) {
        laggingNodeRunsEveryFireTime(redis, "cron", "pool");
    }

    /** The same through {@code @Scheduled(scheduler = "${...}")}: the clock of the named scheduler counts. */
    @Test
    @LongSuite
    void aLaggingQualifiedSchedulerRunsEveryCronFireTime(RedisServerProcess redis) {
        laggingNodeRunsEveryFireTime(redis, "qualified-cron", "qualified");
    }

    private void laggingNodeRunsEveryFireTime(RedisServerProcess redis, String job, String scheduler) {
        int window = 8;
        try (Nodes nodes = Nodes.start(redis, SkewApp.class, List.of(List.of("jobguard.node-id=lagging",
                "jobguard.namespace=skew-lagging-" + job, "test.clock-offset-ms=-2000", "test.job=" + job,
                "test.scheduler=" + scheduler)))) {
            assertThat(nodes.contexts().get(0).getBean(GuardedJobRegistry.class).forName("skew-" + job)).isPresent();
            // fire times from 1 s after startup on; the node, 2 s behind, fires each 2 s later in real time
            Instant from = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
            Instant to = from.plusSeconds(window - 1L);
            await().atMost(Duration.ofSeconds(40)).until(() -> SkewApp.LOG.byFireTime().keySet().stream()
                    .anyMatch(t -> t.isAfter(to)));
            Map<Instant, List<String>> byFireTime = SkewApp.LOG.byFireTime();
            List<Instant> ran = byFireTime.keySet().stream().filter(t -> !t.isBefore(from) && !t.isAfter(to)).toList();
            assertThat(ran).as("fire times %s..%s that ran; all that ran: %s", from, to, byFireTime.keySet())
                    .hasSize(window);
            assertThat(byFireTime).allSatisfy((t, ranOn) -> assertThat(ranOn).as("runs of %s", t).hasSize(1));
            assertThat(SkewApp.LOG.runs()).allSatisfy(run -> assertThat(run.thread()).contains("node-scheduler-"));
        }
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
            long loggedBefore = SkewApp.LOG.runs().size();
            long ranCounted = 0;
            long notRunHere = 0;
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                MeterRegistry meters = node.getBean(MeterRegistry.class);
                ranCounted += count(meters, jobName, "RAN");
                notRunHere += count(meters, jobName, "ALREADY_RAN") + count(meters, jobName, "ASSIGNED_ELSEWHERE");
            }
            Map<Instant, List<String>> byFireTime = SkewApp.LOG.byFireTime();
            assertThat(byFireTime).allSatisfy((t, ranOn) -> assertThat(ranOn).as("nodes that ran %s", t).hasSize(1));
            List<Instant> times = byFireTime.keySet().stream().filter(t -> !t.isBefore(allUp)).toList();
            Instant last = times.get(times.size() - 1);
            for (Instant t = allUp; !t.isAfter(last); t = t.plusSeconds(1)) {
                assertThat(byFireTime).as("fire time %s ran (decisions: %s)", t, SkewApp.LOG.decisionsFor(t))
                        .containsKey(t);
            }
            // counters lag the log by at most the run in flight on each node; the nodes keep running meanwhile
            assertThat(ranCounted).isBetween(loggedBefore - 3, (long) SkewApp.LOG.runs().size());
            // the other nodes fired too: they left the fire times to the job's assigned node (the fleet spread) or
            // found them taken
            assertThat(notRunHere).as("other nodes' ASSIGNED_ELSEWHERE and ALREADY_RAN").isPositive();
            extraChecks.accept(nodes.contexts());
        }
    }

    private static long count(MeterRegistry meters, String job, String outcome) {
        var counter = meters.find(MetricNames.JOB_RUNS).tags(MetricNames.TAG_JOB, job, MetricNames.TAG_OUTCOME, outcome)
                .counter();
        return counter == null ? 0 : (long) counter.count();
    }
}
