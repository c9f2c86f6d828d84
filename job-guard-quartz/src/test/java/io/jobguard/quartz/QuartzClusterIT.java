package io.jobguard.quartz;

import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.listeners.TriggerListenerSupport;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several independent RAMJobStore schedulers in one JVM share an every-second cron job: each
 * nominal fire time runs exactly once cluster-wide, also while one node's firings arrive seconds
 * late and misfire.
 */
@WithRedis
class QuartzClusterIT {

    private static final int FIRE_TIMES = 22;

    private final RedisServerProcess redis;

    QuartzClusterIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @Test
    void everyFireTimeRunsExactlyOnceAcrossThreeSchedulersAndALateMisfiringOne() throws Exception {
        Recorder recorder = new Recorder();
        // the late node: a listener Quartz asks before job-guard's sleeps 2.5 s, on its only worker
        // thread, so its next firings misfire and Quartz fires them "now" (off the cron schedule)
        List<Instant> lateScheduled = new CopyOnWriteArrayList<>();
        TriggerListenerSupport slow = new TriggerListenerSupport() {
            @Override
            public String getName() {
                return "slow-node";
            }

            @Override
            public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
                lateScheduled.add(context.getScheduledFireTime().toInstant());
                try {
                    Thread.sleep(2_500); // simulates a stalled node
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
        };
        List<QuartzNode> nodes = new ArrayList<>();
        try {
            for (String name : List.of("a", "b", "c")) {
                nodes.add(QuartzNode.builder(name, redis, "once").recorder(recorder).build());
            }
            QuartzNode late = QuartzNode.builder("late", redis, "once").recorder(recorder).threads(1)
                    .misfireThreshold(Duration.ofMillis(1_000)).before(slow).build();
            nodes.add(late);
            for (QuartzNode node : nodes) {
                schedule(node, everySecond());
            }
            for (QuartzNode node : nodes) {
                node.scheduler.start();
            }
            Instant allUp = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);

            await().atMost(Duration.ofSeconds(45)).until(
                    () -> recorder.nodesByFireTime.keySet().stream().filter(t -> !t.isBefore(allUp)).count()
                            >= FIRE_TIMES + 1);
            for (QuartzNode node : nodes) {
                node.scheduler.standby();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> recorder.running.get() == 0);

            Map<Instant, List<String>> byT = Map.copyOf(recorder.nodesByFireTime);
            // a run at an off-schedule time would be a second run of that second's slot
            assertThat(byT.keySet()).allSatisfy(t -> assertThat(t.getNano()).isZero());
            assertThat(byT.entrySet().stream().filter(e -> e.getValue().size() > 1)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))
                    .as("fire times run more than once").isEmpty();
            for (int i = 0; i < FIRE_TIMES; i++) {
                Instant t = allUp.plusSeconds(i);
                assertThat(byT.get(t)).as("runs of T=%s", t).hasSize(1);
            }
            assertThat(recorder.runs).allSatisfy(run -> {
                assertThat(run.scheduled()).isEqualTo(run.nominal());
                assertThat(run.contextFence()).isEqualTo(run.fence());
                assertThat(run.fence()).isPositive();
            });
            assertThat(recorder.runs.stream().map(Recorder.Run::node).distinct().count())
                    .as("runs spread over the punctual nodes").isGreaterThan(1);
            // the late node really took part: its firings arrived off-schedule and reached the guard
            assertThat(lateScheduled).anySatisfy(t -> assertThat(t.getNano()).isNotZero());
            assertThat(late.events).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.nominalFireTime().getNano()).isZero());
            assertThat(late.count(RunOutcome.ALREADY_RAN)).isPositive();
            assertThat(nodes).allSatisfy(n -> assertThat(n.listener.listenerErrors()).isZero());
        } finally {
            for (QuartzNode node : nodes) {
                node.close();
            }
        }
    }

    private static Trigger everySecond() {
        return TriggerBuilder.newTrigger().withIdentity("every-second", "cluster")
                .withSchedule(CronScheduleBuilder.cronSchedule("0/1 * * * * ?")).build();
    }

    private static void schedule(QuartzNode node, Trigger trigger) throws SchedulerException {
        JobDetail job = JobBuilder.newJob(TestJobs.Quick.class).withIdentity("tick", "cluster").build();
        node.scheduler.scheduleJob(job, trigger);
    }
}
