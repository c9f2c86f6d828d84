package io.jobguard.quartz;

import io.jobguard.JobEvent;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.store.RunHistory;
import io.jobguard.store.JobId;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.quartz.listeners.JobListenerSupport;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Catch-up at start on Quartz, real Redis and two scheduler instances: a daily job whose fire time fell
 * into a cluster-wide outage (the run record shows yesterday's run, nobody started today's) is caught
 * up when the nodes start, once in the cluster, not at its next firing a day later; with SKIP it is
 * reported MISSED once and listed so in the job's recent fire times.
 */
@WithRedis
class QuartzStartupRecoveryIT {

    private final RedisServerProcess redis;
    private final List<QuartzNode> nodes = new ArrayList<>();
    private final Recorder recorder = new Recorder();
    /** Counted down once per node when its start pass has ended: its pass firing was vetoed after the recovery ran. */
    private final CountDownLatch passes = new CountDownLatch(2);

    QuartzStartupRecoveryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
    }

    private QuartzNode node(String name, String namespace) throws SchedulerException {
        QuartzNode node = QuartzNode.builder(name, redis, namespace).recorder(recorder)
                .skewTolerance(Duration.ofSeconds(1)).build();
        nodes.add(node);
        AtomicBoolean passed = new AtomicBoolean();
        node.scheduler.getListenerManager().addJobListener(new JobListenerSupport() {
            @Override
            public String getName() {
                return "start-pass-probe";
            }

            @Override
            public void jobExecutionVetoed(JobExecutionContext context) {
                // the first pass of this node only: a node whose pass did not reach the store passes again soon
                if (QuartzRecoveryPass.isPass(context.getTrigger()) && passed.compareAndSet(false, true)) {
                    passes.countDown();
                }
            }
        });
        return node;
    }

    /** Schedules the daily job at {@code missed}'s time of day (UTC) and starts the scheduler. */
    private static void startDaily(QuartzNode node, Instant missed, String policy) throws SchedulerException {
        ZonedDateTime at = missed.atZone(ZoneOffset.UTC);
        JobDetail job = JobBuilder.newJob(TestJobs.Quick.class).withIdentity("nightly")
                .usingJobData(ClusterSingletonListener.ENABLED, "true")
                .usingJobData(ClusterSingletonListener.MISFIRE_POLICY, policy).build();
        node.scheduler.scheduleJob(job, TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder
                .cronSchedule(at.getSecond() + " " + at.getMinute() + " " + at.getHour() + " * * ?")
                .inTimeZone(TimeZone.getTimeZone("UTC"))).build());
        node.scheduler.start();
    }

    /** Yesterday's fire time ran; today's, 10 s ago, fell while every node was down. */
    private Instant outage(QuartzNode first) {
        Instant missed = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(10);
        assertThat(first.guard.run(JobOptions.builder("DEFAULT.nightly", Duration.ofSeconds(10)).build(),
                missed.minus(Duration.ofDays(1)), () -> { })).isEqualTo(RunOutcome.RAN);
        return missed;
    }

    @Test
    void runLatestCatchesTheMissedDailyFireTimeUpAtStartOnceInTheCluster() throws Exception {
        QuartzNode a = node("a", "quartz-start-latest");
        QuartzNode b = node("b", "quartz-start-latest");
        Instant missed = outage(a);
        startDaily(a, missed, "RUN_LATEST");
        startDaily(b, missed, "RUN_LATEST");

        assertThat(passes.await(30, TimeUnit.SECONDS)).as("both start passes ended").isTrue();
        assertThat(a.count(RunOutcome.CAUGHT_UP) + b.count(RunOutcome.CAUGHT_UP)).isEqualTo(1);
        assertThat(recorder.nodesByFireTime.get(missed)).as("ran once in the cluster").hasSize(1);
        assertThat(recorder.runs).singleElement().satisfies(r -> assertThat(r.nominal()).isEqualTo(missed));
        List<RunOutcome> since = nodes.stream().flatMap(n -> n.events.stream())
                .filter(e -> !e.nominalFireTime().isBefore(missed)).map(JobEvent::outcome).toList();
        assertThat(since).as("one body since the outage, the catch-up (the other node may see ALREADY_RAN)")
                .filteredOn(RunOutcome::bodyStarted).containsExactly(RunOutcome.CAUGHT_UP);
        assertThat(since).doesNotContain(RunOutcome.MISSED);
        List<RunHistory.FireEntry> history = ((RunHistory) a.guard.store())
                .fireHistory(new JobId("quartz-start-latest", "DEFAULT.nightly"), 20);
        assertThat(history).extracting(RunHistory.FireEntry::outcome).containsExactly("CAUGHT_UP", "RAN");
        assertThat(history.get(0).nominalFireTime()).isEqualTo(missed);
    }

    @Test
    void skipReportsTheMissedDailyFireTimeAtStartOnceAndRunsNothing() throws Exception {
        QuartzNode a = node("a", "quartz-start-skip");
        QuartzNode b = node("b", "quartz-start-skip");
        Instant missed = outage(a);
        startDaily(a, missed, "SKIP");
        startDaily(b, missed, "SKIP");

        assertThat(passes.await(30, TimeUnit.SECONDS)).as("both start passes ended").isTrue();
        JobId job = new JobId("quartz-start-skip", "DEFAULT.nightly");
        assertThat(recorder.runs).isEmpty();
        assertThat(a.count(RunOutcome.MISSED) + b.count(RunOutcome.MISSED)).as("reported by one node").isEqualTo(1);
        assertThat(((RunHistory) b.guard.store()).fireHistory(job, 20))
                .filteredOn(e -> e.outcome().equals("MISSED")).singleElement()
                .satisfies(e -> assertThat(e.nominalFireTime()).isEqualTo(missed));
    }
}
