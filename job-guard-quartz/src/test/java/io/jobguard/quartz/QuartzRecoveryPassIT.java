package io.jobguard.quartz;

import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.JobListenerSupport;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The periodic recovery pass on Quartz, real Redis and two running scheduler instances: a daily job's fire time that
 * every node skipped while it ran (Redis stopped across it, both firings STORE_ERROR) is recovered by the pass a few
 * seconds after Redis is back, once in the cluster: caught up under RUN_LATEST, reported MISSED under SKIP. The job's
 * next regular firing is a day away and its start-up pass ran before the fire time, so only a later pass explains the
 * recovery; each node keeps one pending pass trigger for the job.
 */
@WithRedis
class QuartzRecoveryPassIT {

    /** Also when the pass first looks again: the skipped fire time becomes judgeable this long after it. */
    private static final Duration SKEW_TOLERANCE = Duration.ofSeconds(5);

    private final RedisServerProcess redis;
    private final List<QuartzNode> nodes = new ArrayList<>();
    private final Recorder recorder = new Recorder();
    /** When each node's pass firings ended (job-guard vetoed them after its recovery), by node. */
    private final Map<String, List<Instant>> passesEnded = new ConcurrentHashMap<>();

    QuartzRecoveryPassIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
    }

    @Test
    void runLatestCatchesUpAFireTimeEveryRunningNodeSkippedAtTheNextPassOnceInTheCluster() throws Exception {
        String namespace = "quartz-pass-latest";
        Instant skipped = skippedByEveryRunningNode(namespace, "RUN_LATEST");

        await().atMost(Duration.ofSeconds(30)).until(() -> caughtUp(skipped) && bothPassedSince(skipped));
        assertThat(nodes.stream().mapToLong(n -> n.count(RunOutcome.CAUGHT_UP)).sum()).as("caught up").isEqualTo(1);
        assertThat(recorder.nodesByFireTime.get(skipped)).as("ran once in the cluster").hasSize(1);
        assertThat(recorder.runs).singleElement().satisfies(run -> {
            assertThat(run.nominal()).isEqualTo(skipped);
            // a regular firing is scheduled at the fire time itself; a pass firing after it
            assertThat(run.scheduled()).as("scheduled time of the firing that ran it").isAfter(skipped);
        });
        List<RunHistory.FireEntry> history = ((RunHistory) nodes.get(0).guard.store())
                .fireHistory(new JobId(namespace, "DEFAULT.nightly"), 20);
        assertThat(history).extracting(RunHistory.FireEntry::outcome).containsExactly("CAUGHT_UP", "RAN");
        assertThat(history.get(0).nominalFireTime()).isEqualTo(skipped);
        assertOnePendingPassPerNode();
    }

    @Test
    void skipReportsAFireTimeEveryRunningNodeSkippedAtTheNextPassOnceAndRunsNothing() throws Exception {
        String namespace = "quartz-pass-skip";
        Instant skipped = skippedByEveryRunningNode(namespace, "SKIP");

        await().atMost(Duration.ofSeconds(30)).until(() -> reportedMissed(skipped) && bothPassedSince(skipped));
        assertThat(nodes.stream().flatMap(n -> n.events.stream()).filter(e -> e.outcome() == RunOutcome.MISSED))
                .as("reported by one node").singleElement()
                .satisfies(e -> assertThat(e.nominalFireTime()).isEqualTo(skipped));
        assertThat(recorder.runs).isEmpty();
        assertThat(((RunHistory) nodes.get(1).guard.store()).fireHistory(new JobId(namespace, "DEFAULT.nightly"), 20))
                .filteredOn(e -> e.outcome().equals("MISSED")).singleElement()
                .satisfies(e -> assertThat(e.nominalFireTime()).isEqualTo(skipped));
        assertOnePendingPassPerNode();
    }

    /**
     * Two running nodes get a daily job (yesterday's fire time ran) whose fire time is a few seconds away; Redis
     * stops (data saved) before it, so both firings end STORE_ERROR, and comes back with its data. Returns that fire
     * time.
     */
    private Instant skippedByEveryRunningNode(String namespace, String misfirePolicy) throws Exception {
        QuartzNode a = node("a", namespace);
        QuartzNode b = node("b", namespace);
        a.scheduler.start();
        b.scheduler.start();
        Instant skipped = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(6);
        assertThat(a.guard.run(JobOptions.builder("DEFAULT.nightly", Duration.ofSeconds(10)).build(),
                skipped.minus(Duration.ofDays(1)), () -> { })).isEqualTo(RunOutcome.RAN);
        scheduleDaily(a, skipped, misfirePolicy);
        scheduleDaily(b, skipped, misfirePolicy);
        // the pass at scheduling: it finds nothing yet, and looks again once the coming fire time is judgeable
        await().atMost(Duration.ofSeconds(10)).until(() -> passesEnded.keySet().equals(Set.of("a", "b")));

        await().pollInterval(Duration.ofMillis(50)).atMost(Duration.ofSeconds(10))
                .until(() -> Instant.now().isAfter(skipped.minusMillis(2500)));
        assertThat(Instant.now()).as("Redis stops before the fire time").isBefore(skipped);
        redis.call("SAVE");
        redis.stop();
        await().atMost(Duration.ofSeconds(20)).until(() -> nodes.stream().allMatch(n -> n.events.stream()
                .anyMatch(e -> e.outcome() == RunOutcome.STORE_ERROR && e.nominalFireTime().equals(skipped))));
        redis.restart();
        for (QuartzNode node : nodes) {
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> node.guard.measureClockSkew() != null);
        }
        assertThat(recorder.runs).as("nothing ran the skipped fire time before the pass").isEmpty();
        return skipped;
    }

    private QuartzNode node(String name, String namespace) throws SchedulerException {
        QuartzNode node = QuartzNode.builder(name, redis, namespace).recorder(recorder)
                .skewTolerance(SKEW_TOLERANCE).build();
        nodes.add(node);
        node.scheduler.getListenerManager().addJobListener(new JobListenerSupport() {
            @Override
            public String getName() {
                return "pass-probe";
            }

            @Override
            public void jobExecutionVetoed(JobExecutionContext context) {
                if (QuartzRecoveryPass.isPass(context.getTrigger())) {
                    passesEnded.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>()).add(Instant.now());
                }
            }
        });
        return node;
    }

    /** Schedules the daily job at {@code at}'s time of day (UTC), its next firing after {@code at} a day later. */
    private static void scheduleDaily(QuartzNode node, Instant at, String misfirePolicy) throws SchedulerException {
        ZonedDateTime utc = at.atZone(ZoneOffset.UTC);
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Quick.class).withIdentity("nightly")
                .usingJobData(ClusterSingletonListener.ENABLED, "true")
                .usingJobData(ClusterSingletonListener.MISFIRE_POLICY, misfirePolicy).build(),
                TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder
                        .cronSchedule(utc.getSecond() + " " + utc.getMinute() + " " + utc.getHour() + " * * ?")
                        .inTimeZone(TimeZone.getTimeZone("UTC"))).build());
    }

    private boolean caughtUp(Instant fireTime) {
        return nodes.stream().flatMap(n -> n.events.stream())
                .anyMatch(e -> e.outcome() == RunOutcome.CAUGHT_UP && e.nominalFireTime().equals(fireTime));
    }

    private boolean reportedMissed(Instant fireTime) {
        return nodes.stream().flatMap(n -> n.events.stream())
                .anyMatch(e -> e.outcome() == RunOutcome.MISSED && e.nominalFireTime().equals(fireTime));
    }

    /** Whether each node has ended a pass after the fire time became judgeable. */
    private boolean bothPassedSince(Instant fireTime) {
        Instant judgeable = fireTime.plus(SKEW_TOLERANCE);
        return nodes.stream().allMatch(n -> passesEnded.getOrDefault(n.name, List.of()).stream()
                .anyMatch(ended -> ended.isAfter(judgeable)));
    }

    /**
     * Each node has exactly one pass trigger for the job, pending (not firing) and due about a pass period from now:
     * its last pass reached the store (no back-off) and found nothing pending (the skipped fire time is handled).
     */
    private void assertOnePendingPassPerNode() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (QuartzNode node : nodes) {
                assertOnePendingPass(node);
            }
        });
    }

    private static void assertOnePendingPass(QuartzNode node) throws SchedulerException {
        Set<TriggerKey> passes = node.scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(QuartzRecoveryPass.GROUP));
        assertThat(passes).as("pass triggers of node %s", node.name).hasSize(1);
        Trigger pass = node.scheduler.getTrigger(passes.iterator().next());
        assertThat(pass.getJobKey().getName()).isEqualTo("nightly");
        Instant now = Instant.now();
        assertThat(pass.getNextFireTime()).as("next pass of node %s", node.name).isNotNull()
                .isAfter(Date.from(now.plus(QuartzRecoveryPass.PERIOD.dividedBy(2))))
                .isBefore(Date.from(now.plus(QuartzRecoveryPass.PERIOD).plusSeconds(1)));
        assertThat(QuartzSchedules.of(node.scheduler, node.listener).get("DEFAULT.nightly"))
                .as("the job's schedule, without the pass").startsWith("cron ").doesNotContain(";");
    }
}
