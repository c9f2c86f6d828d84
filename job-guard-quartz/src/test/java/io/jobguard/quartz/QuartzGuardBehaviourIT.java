package io.jobguard.quartz;

import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Overlap across nodes (RETURN and WAIT), Redis down, re-execution and veto paths, on real Quartz and Redis. */
class QuartzGuardBehaviourIT {

    private static RedisServerProcess redis;

    private final List<QuartzNode> nodes = new ArrayList<>();
    private final Recorder recorder = new Recorder();
    private String namespace;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void namespace(TestInfo test) {
        namespace = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void closeNodes() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
        redis.ensureRunning();
    }

    @Test
    void returnSkipsFiringsThatOverlapALongRunOnAnotherNode() throws Exception {
        for (String name : List.of("a", "b", "c")) {
            QuartzNode node = node(name);
            node.scheduler.scheduleJob(slowJob("RETURN"), cron("0/2 * * * * ?"));
        }
        startAll();

        await().atMost(Duration.ofSeconds(15)).until(() -> recorder.runs.size() >= 3);
        standbyAll();

        assertThat(recorder.maxRunning.get()).as("runs at once, cluster-wide").isEqualTo(1);
        List<Instant> busy = outcomes(RunOutcome.BUSY).stream().map(JobEvent::nominalFireTime).toList();
        assertThat(busy).as("firings dropped while the long run held the lease").isNotEmpty();
        assertThat(busy).allSatisfy(t -> assertThat(recorder.nodesByFireTime).doesNotContainKey(t));
        assertThat(recorder.nodesByFireTime.values()).allSatisfy(n -> assertThat(n).hasSize(1));
    }

    @Test
    void waitDeliversTheOverlappingFiringLateInsteadOfDroppingIt() throws Exception {
        for (String name : List.of("a", "b", "c")) {
            QuartzNode node = node(name);
            node.scheduler.scheduleJob(slowJob("WAIT"), cron("0/2 * * * * ?"));
        }
        startAll();

        await().atMost(Duration.ofSeconds(20)).until(() -> recorder.runs.size() >= 4);
        standbyAll();

        assertThat(recorder.maxRunning.get()).as("runs at once, cluster-wide").isEqualTo(1);
        assertThat(recorder.nodesByFireTime.values()).allSatisfy(n -> assertThat(n).hasSize(1));
        List<Instant> ran = recorder.runs.stream().map(Recorder.Run::nominal).sorted().toList();
        for (int i = 1; i < ran.size(); i++) {
            assertThat(ran.get(i)).as("no firing dropped").isEqualTo(ran.get(i - 1).plusSeconds(2));
        }
        assertThat(recorder.runs).as("a firing delivered late, after the previous run released")
                .anySatisfy(r -> assertThat(Duration.between(r.nominal(), r.started())).isGreaterThan(
                        Duration.ofMillis(400)));
        assertThat(outcomes(RunOutcome.BUSY)).isEmpty();
    }

    @Test
    void redisDownVetoesAndCountsTheFiringWithoutAnExceptionReachingQuartzAndTheNextFiringRuns() throws Exception {
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
                asked.incrementAndGet();
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

    private void standbyAll() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.scheduler.standby();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.running.get() == 0);
    }

    private List<JobEvent> outcomes(RunOutcome outcome) {
        return nodes.stream().flatMap(n -> n.events.stream()).filter(e -> e.outcome() == outcome).toList();
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
