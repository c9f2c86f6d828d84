package io.jobguard.quartz;

import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Missed fire times on Quartz: a cron job every 2 s (skew tolerance 1 s); every node is down across at least 3 fire
 * times; when two nodes come back, the first regular firing (or the start-up pass) finds the gap. With
 * {@code jobguard.misfirePolicy = RUN_ALL} in its JobDataMap each missed fire time runs once in the cluster, in order,
 * before it; with no recovery setting each is reported {@code MISSED} once and none runs late (the accounting rule, by
 * default).
 */
@WithRedis
class QuartzMissedFireTimeRecoveryIT {

    private final RedisServerProcess redis;
    private final List<QuartzNode> nodes = new ArrayList<>();
    private final Recorder recorder = new Recorder();

    QuartzMissedFireTimeRecoveryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
    }

    private QuartzNode start(String name, String misfirePolicy) throws SchedulerException {
        QuartzNode node = QuartzNode.builder(name, redis, "quartz-missed").recorder(recorder)
                .skewTolerance(Duration.ofSeconds(1)).build();
        nodes.add(node);
        JobBuilder builder = JobBuilder.newJob(TestJobs.Quick.class).withIdentity("billing")
                .usingJobData(ClusterSingletonListener.ENABLED, "true");
        if (misfirePolicy != null) {
            builder.usingJobData(ClusterSingletonListener.MISFIRE_POLICY, misfirePolicy);
        }
        JobDetail job = builder.build();
        node.scheduler.scheduleJob(job, TriggerBuilder.newTrigger()
                .withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?")).build());
        node.scheduler.start();
        return node;
    }

    @Test
    void fireTimesMissedWhileEveryNodeWasDownRunOnceEachAtTheNextFiring() throws Exception {
        Instant lastBefore = everyNodeDownAcrossFireTimes("RUN_ALL");
        Instant restart = Instant.now();
        start("a", "RUN_ALL");
        start("b", "RUN_ALL");
        awaitARunAfter(restart.plusSeconds(4));

        Map<Instant, List<String>> byTime = Map.copyOf(recorder.nodesByFireTime);
        assertThat(byTime.values()).as("nodes per fire time: %s", byTime).allSatisfy(n -> assertThat(n).hasSize(1));
        List<Instant> caughtUp = nodes.stream().flatMap(n -> n.events.stream())
                .filter(e -> e.outcome() == RunOutcome.CAUGHT_UP).map(JobEvent::nominalFireTime).sorted().toList();
        assertThat(caughtUp).as("caught up").hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(t -> assertThat(t).isAfter(lastBefore).isBefore(restart.plusSeconds(2)));
        List<Instant> catchUpOrder = recorder.runs.stream().map(Recorder.Run::nominal).filter(caughtUp::contains).toList();
        assertThat(catchUpOrder).as("in order").isSorted();
        Instant lastRan = byTime.keySet().stream().max(Instant::compareTo).orElseThrow();
        for (Instant t = lastBefore; t.isBefore(lastRan); t = t.plusSeconds(2)) {
            assertThat(byTime).as("fire time %s", t).containsKey(t);
        }
    }

    @Test
    void withNoSettingTheFireTimesMissedWhileEveryNodeWasDownAreReportedOnceEachAndNoneRunsLate() throws Exception {
        Instant lastBefore = everyNodeDownAcrossFireTimes(null);
        Instant restart = Instant.now();
        start("a", null);
        start("b", null);
        awaitARunAfter(restart.plusSeconds(4));

        Map<Instant, List<String>> ran = Map.copyOf(recorder.nodesByFireTime);
        Map<Instant, Long> missed = nodes.stream().flatMap(n -> n.events.stream())
                .filter(e -> e.outcome() == RunOutcome.MISSED)
                .collect(Collectors.groupingBy(JobEvent::nominalFireTime, TreeMap::new, Collectors.counting()));
        assertThat(nodes.stream().flatMap(n -> n.events.stream()))
                .noneMatch(e -> e.outcome() == RunOutcome.CAUGHT_UP);
        assertThat(missed.keySet()).as("missed while every node was down").hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(t -> assertThat(t).isAfter(lastBefore).isBefore(restart.plusSeconds(2)));
        Instant lastRan = ran.keySet().stream().max(Instant::compareTo).orElseThrow();
        for (Instant t = lastBefore; t.isBefore(lastRan); t = t.plusSeconds(2)) {
            int runs = ran.getOrDefault(t, List.of()).size();
            long reports = missed.getOrDefault(t, 0L);
            assertThat(runs + reports).as("fire time %s: ran on %s, reported MISSED %d times", t, ran.get(t), reports)
                    .isEqualTo(1);
        }
    }

    /** Node a runs the job, then every node is down for 7 s; returns the last fire time that ran before. */
    private Instant everyNodeDownAcrossFireTimes(String misfirePolicy) throws Exception {
        QuartzNode first = start("a", misfirePolicy);
        await().atMost(Duration.ofSeconds(30)).until(() -> !recorder.runs.isEmpty());
        first.close();
        nodes.remove(first);
        Instant lastBefore = recorder.runs.stream().map(Recorder.Run::nominal).max(Instant::compareTo).orElseThrow();
        Instant downUntil = Instant.now().plusSeconds(7);
        await().pollInterval(Duration.ofMillis(200)).atMost(Duration.ofSeconds(20))
                .until(() -> Instant.now().isAfter(downUntil));
        return lastBefore;
    }

    private void awaitARunAfter(Instant fireTime) {
        await().atMost(Duration.ofSeconds(60)).until(() -> nodes.stream()
                .flatMap(n -> n.events.stream()).filter(e -> e.outcome() == RunOutcome.RAN)
                .anyMatch(e -> e.nominalFireTime().isAfter(fireTime)));
    }
}
