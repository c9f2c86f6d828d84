package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.RunContext;
import io.jobguard.spring.JobGuardConfigCustomizer;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Clock;
import java.time.Duration;

/**
 * One node of the skew tests: its scheduler and its job-guard engine read a clock offset by
 * {@code test.clock-offset-ms}; every guarded run is written to {@link #LOG}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class SkewApp {

    static final FireLog LOG = new FireLog();

    @Bean
    Clock nodeClock(@Value("${test.clock-offset-ms:0}") long offsetMillis) {
        return Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMillis));
    }

    @Bean
    SmartInitializingSingleton recordDecisions(JobGuard guard) {
        return () -> guard.addListener(e -> LOG.decided(e.nominalFireTime(), e.nodeId(), e.outcome().name()));
    }

    @Bean
    JobGuardConfigCustomizer nodeClockForSkewReports(Clock nodeClock) {
        return builder -> builder.clock(nodeClock);
    }

    /** The application's own scheduler (unless the test uses Boot's default one). */
    @Bean
    @ConditionalOnProperty(name = "test.scheduler", havingValue = "pool", matchIfMissing = true)
    ThreadPoolTaskScheduler taskScheduler(Clock nodeClock) {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(2);
        scheduler.setThreadNamePrefix("node-scheduler-");
        scheduler.setClock(nodeClock);
        return scheduler;
    }

    /**
     * For {@code test.scheduler=qualified}: the default scheduler runs on the system clock, the
     * node's clock belongs to {@link #nodeScheduler}, which jobs name in {@code @Scheduled(scheduler = ...)}.
     */
    @Bean
    @Primary
    @ConditionalOnProperty(name = "test.scheduler", havingValue = "qualified")
    ThreadPoolTaskScheduler systemClockScheduler() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setThreadNamePrefix("system-scheduler-");
        return scheduler;
    }

    /** The scheduler on the node's clock that qualified jobs name. */
    @Bean
    @ConditionalOnProperty(name = "test.scheduler", havingValue = "qualified")
    ThreadPoolTaskScheduler nodeScheduler(Clock nodeClock) {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(2);
        scheduler.setThreadNamePrefix("node-scheduler-");
        scheduler.setClock(nodeClock);
        return scheduler;
    }

    /** Boot's default scheduler (SimpleAsyncTaskScheduler with virtual threads), on the node's clock. */
    @Bean
    @ConditionalOnProperty(name = "test.scheduler", havingValue = "boot")
    SimpleAsyncTaskSchedulerCustomizer nodeClockForBootScheduler(Clock nodeClock) {
        return scheduler -> scheduler.setClock(nodeClock);
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "cron")
    CronJob cronJob(@Value("${jobguard.node-id}") String node) {
        return new CronJob(node);
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "qualified-cron")
    QualifiedCronJob qualifiedCronJob(@Value("${jobguard.node-id}") String node) {
        return new QualifiedCronJob(node);
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "rate")
    RateJob rateJob(@Value("${jobguard.node-id}") String node) {
        return new RateJob(node);
    }

    static void record(String node) {
        long start = System.nanoTime();
        RunContext run = RunContext.current().orElseThrow(() -> new AssertionError("no guarded run on this thread"));
        LOG.add(new FireLog.Run(run.nominalFireTime(), node, start, System.nanoTime(),
                Thread.currentThread().toString()));
    }

    /** Every second by cron. */
    static class CronJob {
        private final String node;

        CronJob(String node) {
            this.node = node;
        }

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @ClusterSingleton(name = "skew-cron", lease = "30s")
        public void tick() {
            record(node);
        }
    }

    /** Every second by cron, on the scheduler named by {@code test.qualifier} (default: nodeScheduler). */
    static class QualifiedCronJob {
        private final String node;

        QualifiedCronJob(String node) {
            this.node = node;
        }

        @Scheduled(cron = "* * * * * *", zone = "UTC", scheduler = "${test.qualifier:nodeScheduler}")
        @ClusterSingleton(name = "skew-qualified-cron", lease = "30s")
        public void tick() {
            record(node);
        }
    }

    /** Every second at a fixed rate. */
    static class RateJob {
        private final String node;

        RateJob(String node) {
            this.node = node;
        }

        @Scheduled(fixedRate = 1000)
        @ClusterSingleton(name = "skew-rate", lease = "30s")
        public void tick() {
            record(node);
        }
    }
}
