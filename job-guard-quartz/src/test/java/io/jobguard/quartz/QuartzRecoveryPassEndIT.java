package io.jobguard.quartz;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.ClusterSingleton;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.JobListenerSupport;
import org.quartz.listeners.SchedulerListenerSupport;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How a Quartz recovery pass ends, real Redis, one node: a pass whose job is deleted while it runs, and one whose
 * scheduler shuts down while it runs, end without a WARN, an error reaching Quartz or a pass trigger or thread left
 * behind. In both the start-up pass is busy catching up a daily fire time missed 10 s ago when it happens.
 */
@WithRedis
class QuartzRecoveryPassEndIT {

    private static final JobKey JOB = JobKey.jobKey("nightly");

    static volatile CountDownLatch entered = new CountDownLatch(1);
    static volatile CountDownLatch proceed = new CountDownLatch(1);

    private final RedisServerProcess redis;
    private final Logger quartzLog = (Logger) LoggerFactory.getLogger("io.jobguard.quartz");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final AtomicInteger schedulerErrors = new AtomicInteger();
    private final AtomicInteger passesEnded = new AtomicInteger();
    private QuartzNode node;

    QuartzRecoveryPassEndIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void captureLog() {
        entered = new CountDownLatch(1);
        proceed = new CountDownLatch(1);
        lines.start();
        quartzLog.addAppender(lines);
    }

    @AfterEach
    void close() throws SchedulerException {
        proceed.countDown();
        quartzLog.detachAppender(lines);
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aJobDeletedWhileItsPassRunsEndsItsPassesQuietly() throws Exception {
        Instant missed = startWithMissedFireTime("quartz-pass-deleted", DeletesItself.class);

        await().atMost(Duration.ofSeconds(20)).until(() -> caughtUp(missed) && !node.scheduler.checkExists(JOB));
        // the pass firing ends (vetoed) after its catch-up deleted the job: no next pass is scheduled for it
        await().atMost(Duration.ofSeconds(5)).until(() -> passesEnded.get() > 0);
        assertThat(node.scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(QuartzRecoveryPass.GROUP))).isEmpty();
        assertQuiet();
    }

    @Test
    void aSchedulerShutDownWhileAPassRunsLeavesNoPassTriggerNorThread() throws Exception {
        Instant missed = startWithMissedFireTime("quartz-pass-shutdown", WaitsForTheTest.class);
        String threadPrefix = node.scheduler.getSchedulerName() + "_";
        assertThat(entered.await(20, TimeUnit.SECONDS)).as("the pass's catch-up runs").isTrue();

        node.scheduler.shutdown(false);
        proceed.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith(threadPrefix)));
        assertThat(caughtUp(missed)).as("the catch-up ended as CAUGHT_UP").isTrue();
        assertQuiet();
    }

    /**
     * Starts a node whose daily job (class {@code job}, RUN_LATEST) missed its fire time 10 s ago, yesterday's having
     * run: the start-up pass catches it up, running the job's body. Returns that fire time.
     */
    private Instant startWithMissedFireTime(String namespace, Class<? extends Job> job) throws SchedulerException {
        node = QuartzNode.builder("a", redis, namespace).skewTolerance(Duration.ofSeconds(1)).build();
        node.scheduler.getListenerManager().addSchedulerListener(new SchedulerListenerSupport() {
            @Override
            public void schedulerError(String msg, SchedulerException cause) {
                schedulerErrors.incrementAndGet();
            }
        });
        node.scheduler.getListenerManager().addJobListener(new JobListenerSupport() {
            @Override
            public String getName() {
                return "pass-probe";
            }

            @Override
            public void jobExecutionVetoed(JobExecutionContext context) {
                if (QuartzRecoveryPass.isPass(context.getTrigger())) {
                    passesEnded.incrementAndGet();
                }
            }
        });
        Instant missed = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(10);
        assertThat(node.guard.run(JobOptions.builder("DEFAULT.nightly", Duration.ofSeconds(10)).build(),
                missed.minus(Duration.ofDays(1)), () -> { })).isEqualTo(RunOutcome.RAN);
        ZonedDateTime at = missed.atZone(ZoneOffset.UTC);
        node.scheduler.scheduleJob(JobBuilder.newJob(job).withIdentity(JOB)
                .usingJobData(ClusterSingletonListener.MISFIRE_POLICY, "RUN_LATEST").build(),
                TriggerBuilder.newTrigger().withSchedule(CronScheduleBuilder
                        .cronSchedule(at.getSecond() + " " + at.getMinute() + " " + at.getHour() + " * * ?")
                        .inTimeZone(TimeZone.getTimeZone("UTC"))).build());
        node.scheduler.start();
        return missed;
    }

    private boolean caughtUp(Instant fireTime) {
        return node.events.stream().anyMatch(e -> e.outcome() == RunOutcome.CAUGHT_UP
                && e.nominalFireTime().equals(fireTime));
    }

    private void assertQuiet() {
        assertThat(lines.list).as("job-guard's Quartz log").noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
        assertThat(schedulerErrors.get()).as("errors Quartz saw from listeners").isZero();
        assertThat(node.listener.listenerErrors()).isZero();
    }

    /** Deletes its own job when it runs: here, as the catch-up of its start-up pass. */
    @ClusterSingleton(lease = "10s")
    public static final class DeletesItself implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            try {
                context.getScheduler().deleteJob(context.getJobDetail().getKey());
            } catch (SchedulerException e) {
                throw new JobExecutionException(e);
            }
        }
    }

    /** Signals that it runs, then waits for the test. */
    @ClusterSingleton(lease = "10s")
    public static final class WaitsForTheTest implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            entered.countDown();
            try {
                proceed.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
