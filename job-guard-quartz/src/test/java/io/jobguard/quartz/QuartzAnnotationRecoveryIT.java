package io.jobguard.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Quartz job's recovery of lost fire times set by {@code @ClusterSingleton} on its class alone (no
 * {@code JobDataMap} entry, the trigger's default misfire instruction): on a real scheduler and a real
 * Redis, the node is stopped across several fire times and a new node started; the missed fire times
 * run as catch-ups ({@code misfirePolicy = "RUN_ALL"}), at most {@code catchUpMax} of them, and only
 * those inside {@code catchUpWindow}.
 */
@WithRedis
class QuartzAnnotationRecoveryIT {

    private final RedisServerProcess redis;
    private final List<QuartzNode> nodes = new ArrayList<>();
    private final Recorder recorder = new Recorder();

    QuartzAnnotationRecoveryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() throws SchedulerException {
        for (QuartzNode node : nodes) {
            node.close();
        }
    }

    @Test
    void runAllOnTheAnnotationCatchesUpTheFireTimesMissedWhileTheNodeWasDown() throws Exception {
        Gap gap = stopAcross(RunAll.class, "run-all", 7);
        List<Instant> caughtUp = outcomes(RunOutcome.CAUGHT_UP);
        assertThat(caughtUp).as("caught up").hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(t -> assertThat(t).isAfter(gap.lastBefore()).isBefore(gap.restart().plusSeconds(2)));
        assertThat(recorder.nodesByFireTime.values()).as("each fire time once").allSatisfy(n -> assertThat(n).hasSize(1));
        for (Instant t = gap.lastBefore(); t.isBefore(gap.restart().minusSeconds(2)); t = t.plusSeconds(2)) {
            assertThat(recorder.nodesByFireTime).as("fire time %s ran", t).containsKey(t);
        }
    }

    @Test
    void catchUpMaxOnTheAnnotationBoundsTheCatchUpsAndReportsTheRestMissed() throws Exception {
        Gap gap = stopAcross(RunAtMostTwo.class, "run-two", 9);
        List<Instant> caughtUp = outcomes(RunOutcome.CAUGHT_UP);
        List<Instant> missed = outcomes(RunOutcome.MISSED);
        assertThat(caughtUp).as("caught up (missed: %s)", missed).hasSize(2);
        assertThat(missed).as("reported missed").isNotEmpty()
                .allSatisfy(t -> assertThat(t).isAfter(gap.lastBefore()).isBefore(caughtUp.get(0)));
    }

    @Test
    void catchUpWindowOnTheAnnotationLeavesOlderFireTimesUnrun() throws Exception {
        Gap gap = stopAcross(RunInFourSeconds.class, "run-window", 10);
        List<Instant> caughtUp = outcomes(RunOutcome.CAUGHT_UP);
        assertThat(caughtUp).as("caught up").isNotEmpty()
                .allSatisfy(t -> assertThat(t).isAfter(gap.restart().minusSeconds(6)));
        Instant firstCaughtUp = caughtUp.get(0);
        List<Instant> unrun = new ArrayList<>();
        for (Instant t = gap.lastBefore().plusSeconds(2); t.isBefore(firstCaughtUp); t = t.plusSeconds(2)) {
            if (!recorder.nodesByFireTime.containsKey(t)) {
                unrun.add(t);
            }
        }
        assertThat(unrun).as("fire times older than the window, not run").isNotEmpty();
    }

    /** Starts a node with the job, stops it after its first run for {@code downSeconds}, starts a new node. */
    private Gap stopAcross(Class<? extends Job> job, String name, int downSeconds) throws Exception {
        QuartzNode first = start(job, name);
        await().atMost(Duration.ofSeconds(30)).until(() -> !recorder.runs.isEmpty());
        first.close();
        nodes.remove(first);
        Instant lastBefore = recorder.runs.stream().map(Recorder.Run::nominal).max(Instant::compareTo).orElseThrow();
        Instant downUntil = Instant.now().plusSeconds(downSeconds);
        await().pollInterval(Duration.ofMillis(200)).atMost(Duration.ofSeconds(30))
                .until(() -> Instant.now().isAfter(downUntil));
        Instant restart = Instant.now();
        start(job, name);
        await().atMost(Duration.ofSeconds(60)).until(() -> nodes.stream()
                .flatMap(n -> n.events.stream()).filter(e -> e.outcome() == RunOutcome.RAN)
                .anyMatch(e -> e.nominalFireTime().isAfter(restart.plusSeconds(4))));
        return new Gap(lastBefore, restart);
    }

    private QuartzNode start(Class<? extends Job> job, String name) throws SchedulerException {
        QuartzNode node = QuartzNode.builder("a", redis, "quartz-annotated-" + name).recorder(recorder)
                .skewTolerance(Duration.ofSeconds(1)).build();
        nodes.add(node);
        node.scheduler.scheduleJob(JobBuilder.newJob(job).withIdentity(name).build(), TriggerBuilder.newTrigger()
                .withSchedule(CronScheduleBuilder.cronSchedule("0/2 * * * * ?")).build());
        node.scheduler.start();
        return node;
    }

    private List<Instant> outcomes(RunOutcome outcome) {
        return nodes.stream().flatMap(n -> n.events.stream()).filter(e -> e.outcome() == outcome)
                .map(JobEvent::nominalFireTime).sorted().toList();
    }

    /** The last fire time that ran before the stop, and when the new node started. */
    private record Gap(Instant lastBefore, Instant restart) {
    }

    /** Records its run; recovers every missed fire time by its annotation alone. */
    @ClusterSingleton(lease = "10s", misfirePolicy = "RUN_ALL", delivery = "AT_LEAST_ONCE")
    public static final class RunAll implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            Recorder.record(context);
        }
    }

    /** Records its run; runs at most two missed fire times. */
    @ClusterSingleton(lease = "10s", misfirePolicy = "RUN_ALL", catchUpMax = 2)
    public static final class RunAtMostTwo implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            Recorder.record(context);
        }
    }

    /** Records its run; runs only missed fire times at most 4 s old. */
    @ClusterSingleton(lease = "10s", misfirePolicy = "RUN_ALL", catchUpWindow = "4s")
    public static final class RunInFourSeconds implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            Recorder.record(context);
        }
    }
}
