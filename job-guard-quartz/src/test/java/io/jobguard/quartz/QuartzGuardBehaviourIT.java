package io.jobguard.quartz;

import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.matchers.EverythingMatcher;
import org.quartz.listeners.JobListenerSupport;
import org.quartz.listeners.SchedulerListenerSupport;
import org.quartz.listeners.TriggerListenerSupport;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Overlap across nodes (RETURN and WAIT), Redis down, re-execution and veto paths, on real Quartz and Redis. */
@WithRedis
class QuartzGuardBehaviourIT {

    private final RedisServerProcess redis;
    private final List<QuartzNode> nodes = new ArrayList<>();
    private final Recorder recorder = new Recorder();
    private String namespace;

    QuartzGuardBehaviourIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void namespace(TestInfo test) {
        namespace = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void closeNodes() throws SchedulerException {
        closeAll();
        redis.ensureRunning();
    }

    /** Shuts every node down, waiting for running and waiting firings; returns all their events. */
    private List<JobEvent> closeAll() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
        List<JobEvent> events = nodes.stream().flatMap(n -> n.events.stream()).toList();
        nodes.clear();
        return events;
    }

    /** The run outlasts the next firing by 0.8 s, longer than the job's busy grace (200 ms): that firing is BUSY. */
    @Test
    void returnSkipsTheFiringThatOverlapsALongRunOnAnotherNode() throws Exception {
        Instant first = threeFiringsTwoSecondsApart(slowJob("RETURN").getJobBuilder()
                .usingJobData(ClusterSingletonListener.BUSY_GRACE, "200ms").build());

        await().atMost(Duration.ofSeconds(15)).until(() -> recorder.runs.size() >= 2);
        List<JobEvent> events = closeAll();

        assertThat(recorder.maxRunning.get()).as("runs at once, cluster-wide").isEqualTo(1);
        assertThat(recorder.nodesByFireTime).containsOnlyKeys(first, first.plusSeconds(4));
        assertThat(recorder.nodesByFireTime.values()).allSatisfy(n -> assertThat(n).hasSize(1));
        assertThat(events).filteredOn(e -> e.nominalFireTime().equals(first.plusSeconds(2)))
                .filteredOn(e -> e.outcome() != RunOutcome.MISSED)
                .as("the firing that overlapped the first run, on every node").hasSize(3)
                .extracting(JobEvent::outcome).containsOnly(RunOutcome.BUSY);
        // nobody ran it: by default it is accounted for, MISSED once in the cluster (by the next firing that found it)
        assertThat(events).filteredOn(e -> e.nominalFireTime().equals(first.plusSeconds(2)))
                .filteredOn(e -> e.outcome() == RunOutcome.MISSED).hasSize(1);
    }

    @Test
    void waitDeliversTheOverlappingFiringLateInsteadOfDroppingIt() throws Exception {
        Instant first = threeFiringsTwoSecondsApart(slowJob("WAIT"));

        await().atMost(Duration.ofSeconds(15)).until(() -> recorder.runs.size() >= 3);
        List<JobEvent> events = closeAll();

        assertThat(recorder.maxRunning.get()).as("runs at once, cluster-wide").isEqualTo(1);
        assertThat(recorder.nodesByFireTime).as("no firing dropped")
                .containsOnlyKeys(first, first.plusSeconds(2), first.plusSeconds(4));
        assertThat(recorder.nodesByFireTime.values()).allSatisfy(n -> assertThat(n).hasSize(1));
        assertThat(recorder.runs).filteredOn(r -> !r.nominal().equals(first))
                .as("firings delivered late, after the previous run released")
                .allSatisfy(r -> assertThat(Duration.between(r.nominal(), r.started()))
                        .isGreaterThan(Duration.ofMillis(400)));
        assertThat(events).extracting(JobEvent::outcome)
                .doesNotContain(RunOutcome.BUSY, RunOutcome.WAIT_TIMEOUT);
    }

    /**
     * Schedules {@code job} on three nodes for exactly three fire times two seconds apart; the job
     * runs 2.8 s, so each run overlaps the next fire time. Returns the first fire time.
     */
    private Instant threeFiringsTwoSecondsApart(JobDetail job) throws SchedulerException {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
        Instant first = now.getEpochSecond() % 2 == 0 ? now : now.plusSeconds(1);
        for (String name : List.of("a", "b", "c")) {
            Trigger trigger = TriggerBuilder.newTrigger().startAt(Date.from(first))
                    .endAt(Date.from(first.plusMillis(4_500)))
                    .withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?")).build();
            node(name).scheduler.scheduleJob(job, trigger);
        }
        startAll();
        return first;
    }

    @Test
    void redisDownVetoesAndCountsTheFiringWithoutAnExceptionReachingQuartzAndTheNextFiringRuns() throws Exception {
        // the restart loses Redis' data: the outage's fire times that Quartz fires late, after Redis returned, and
        // those within this node's lead + 250 ms of the return are HISTORY_LOST
        QuartzNode node = QuartzNode.builder("a", redis, namespace).recorder(recorder)
                .skewTolerance(Duration.ofSeconds(1)).build();
        nodes.add(node);
        AtomicInteger vetoed = new AtomicInteger();
        AtomicInteger schedulerErrors = new AtomicInteger();
        node.scheduler.getListenerManager().addJobListener(new JobListenerSupport() {
            @Override
            public String getName() {
                return "veto-counter";
            }

            @Override
            public void jobExecutionVetoed(JobExecutionContext context) {
                vetoed.incrementAndGet();
            }
        }, EverythingMatcher.allJobs());
        node.scheduler.getListenerManager().addSchedulerListener(new SchedulerListenerSupport() {
            @Override
            public void schedulerError(String msg, SchedulerException cause) {
                schedulerErrors.incrementAndGet();
            }
        });
        node.scheduler.scheduleJob(quickJob(), cron("0/1 * * * * ?"));
        node.scheduler.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> node.count(RunOutcome.RAN) >= 1);

        redis.stop();
        Instant down = Instant.now();
        await().atMost(Duration.ofSeconds(10)).until(() -> node.count(RunOutcome.STORE_ERROR) >= 2);
        Instant back = Instant.now();
        long ranBefore = node.count(RunOutcome.RAN);
        redis.restart();
        await().atMost(Duration.ofSeconds(10)).until(() -> node.count(RunOutcome.RAN) > ranBefore);
        node.scheduler.standby();
        assertThat(node.count(RunOutcome.HISTORY_LOST)).as("fire times refused after the data loss").isPositive();

        assertThat(vetoed.get()).as("vetoed firings").isGreaterThanOrEqualTo(2);
        assertThat(schedulerErrors.get()).as("errors Quartz saw from listeners").isZero();
        assertThat(node.listener.listenerErrors()).isZero();
        assertThat(recorder.runs).as("no body started while Redis was down")
                .noneSatisfy(r -> assertThat(r.started()).isBetween(down.plusMillis(200), back));
    }

    @Test
    void reExecutionRunsAgainUnderTheSameLeaseAndReleasesIt() throws Exception {
        QuartzNode node = node("a");
        JobDetail job = JobBuilder.newJob(TestJobs.Flaky.class).withIdentity("refire", "g")
                .usingJobData(ClusterSingletonListener.ENABLED, "true").usingJobData("mode", "refire").build();
        node.scheduler.scheduleJob(job, TriggerBuilder.newTrigger().startNow().build());
        node.scheduler.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> !node.events.isEmpty());
        assertThat(node.events).extracting(JobEvent::outcome).containsExactly(RunOutcome.RAN);
        assertThat(recorder.runs).hasSize(2).extracting(Recorder.Run::fence).containsOnly(recorder.runs.get(0).fence());
        assertThat(recorder.runs).extracting(Recorder.Run::nominal).containsOnly(recorder.runs.get(0).nominal());
        assertThat(node.guard.currentLease("g.refire")).isEmpty();
        assertThat(node.guard.activeLeases()).isZero();
    }

    @Test
    void aFailingJobIsReportedFailedAndReleasesItsLease() throws Exception {
        QuartzNode node = node("a");
        JobDetail job = JobBuilder.newJob(TestJobs.Flaky.class).withIdentity("fails", "g")
                .usingJobData(ClusterSingletonListener.ENABLED, "true").usingJobData("mode", "fail").build();
        node.scheduler.scheduleJob(job, TriggerBuilder.newTrigger().startNow().build());
        node.scheduler.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> !node.events.isEmpty());
        assertThat(node.events).extracting(JobEvent::outcome).containsExactly(RunOutcome.FAILED);
        assertThat(recorder.runs).hasSize(1);
        assertThat(node.guard.currentLease("g.fails")).isEmpty();
        assertThat(node.guard.activeLeases()).isZero();
    }

    @Test
    void aVetoByAnotherListenerAfterAdmissionReleasesTheLease() throws Exception {
        QuartzNode node = node("a");
        AtomicInteger asked = new AtomicInteger();
        node.scheduler.getListenerManager().addTriggerListener(new TriggerListenerSupport() {
            @Override
            public String getName() {
                return "vetoes-everything";
            }

            @Override
            public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
                // job-guard's recovery pass firings (every guarded job with a grid has them) are not the ones asked about
                if (!QuartzRecoveryPass.isPass(trigger)) {
                    asked.incrementAndGet();
                }
                return true;
            }
        }, EverythingMatcher.allTriggers());
        node.scheduler.scheduleJob(quickJob(), TriggerBuilder.newTrigger().startNow().build());
        node.scheduler.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> !node.events.isEmpty());
        assertThat(asked.get()).isEqualTo(1);
        assertThat(node.events).singleElement().satisfies(e -> {
            assertThat(e.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(e.failure()).isInstanceOf(CancellationException.class);
        });
        assertThat(recorder.runs).isEmpty();
        assertThat(node.guard.currentLease("g.quick")).isEmpty();
        assertThat(node.guard.activeLeases()).isZero();
    }

    @Test
    void invalidOptionsOnAJobAddedAfterInstallVetoItsFiringsWithoutAnExceptionReachingQuartz() throws Exception {
        QuartzNode node = node("a");
        AtomicInteger vetoed = new AtomicInteger();
        AtomicInteger schedulerErrors = new AtomicInteger();
        node.scheduler.getListenerManager().addJobListener(new JobListenerSupport() {
            @Override
            public String getName() {
                return "veto-counter";
            }

            @Override
            public void jobExecutionVetoed(JobExecutionContext context) {
                vetoed.incrementAndGet();
            }
        }, EverythingMatcher.allJobs());
        node.scheduler.getListenerManager().addSchedulerListener(new SchedulerListenerSupport() {
            @Override
            public void schedulerError(String msg, SchedulerException cause) {
                schedulerErrors.incrementAndGet();
            }
        });
        node.scheduler.start();
        node.scheduler.scheduleJob(JobBuilder.newJob(TestJobs.Quick.class).withIdentity("bad", "g")
                .usingJobData(ClusterSingletonListener.LEASE, "soon").build(), TriggerBuilder.newTrigger().startNow().build());

        await().atMost(Duration.ofSeconds(5)).until(() -> vetoed.get() == 1);
        assertThat(node.listener.listenerErrors()).isEqualTo(1);
        assertThat(schedulerErrors.get()).isZero();
        assertThat(recorder.runs).isEmpty();
    }

    private QuartzNode node(String name) throws SchedulerException {
        QuartzNode node = QuartzNode.builder(name, redis, namespace).recorder(recorder).build();
        nodes.add(node);
        return node;
    }

    private void startAll() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.scheduler.start();
        }
    }



    private static JobDetail slowJob(String type) {
        return JobBuilder.newJob(TestJobs.Slow.class).withIdentity("slow", "g")
                .usingJobData(ClusterSingletonListener.ENABLED, "true")
                .usingJobData(ClusterSingletonListener.TYPE, type)
                .usingJobData(ClusterSingletonListener.LEASE, "10s")
                .usingJobData(ClusterSingletonListener.WAIT_FOR, "6s")
                .usingJobData("workMillis", 2_800L).build();
    }

    private static JobDetail quickJob() {
        return JobBuilder.newJob(TestJobs.Quick.class).withIdentity("quick", "g").build();
    }

    private static Trigger cron(String expression) {
        return TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder.cronSchedule(expression)).build();
    }

}
