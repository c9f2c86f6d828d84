package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.RunContext;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Nodes on Boot's default scheduler with jobs that overrun, cool down, or are called directly. */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class GuardApp {

    static final FireLog LOG = new FireLog();
    /** Fire times whose run lasts longer than the one-second period. */
    static final int LONG_EVERY = 4;
    static final long LONG_RUN_MILLIS = 1500;

    @Bean
    SmartInitializingSingleton recordDecisions(JobGuard guard) {
        return () -> guard.addListener(e -> LOG.decided(e.nominalFireTime(), e.nodeId(), e.outcome().name()));
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "overrun")
    OverrunJob overrunJob(@Value("${jobguard.node-id}") String node) {
        return new OverrunJob(node);
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "delay")
    DelayJob delayJob(@Value("${jobguard.node-id}") String node) {
        return new DelayJob(node);
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "yearly")
    YearlyJob yearlyJob() {
        return new YearlyJob();
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "zoned")
    ZonedJob zonedJob() {
        return new ZonedJob();
    }

    static boolean isLong(Instant fireTime) {
        return fireTime.getEpochSecond() % LONG_EVERY == 0;
    }

    /** Every second; every fourth fire time runs 1.5 s. Its type comes from jobguard.jobs.overrun.type. */
    static class OverrunJob {
        private final String node;

        OverrunJob(String node) {
            this.node = node;
        }

        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "overrun", lease = "20s")
        public void tick() throws InterruptedException {
            long start = System.nanoTime();
            Instant t = RunContext.current().orElseThrow().nominalFireTime();
            if (isLong(t)) {
                // the job's own work, deliberately longer than the period
                new CountDownLatch(1).await(LONG_RUN_MILLIS, TimeUnit.MILLISECONDS);
            }
            LOG.add(new FireLog.Run(t, node, start, System.nanoTime(), Thread.currentThread().getName()));
        }
    }

    /** Fixed delay 700 ms: cluster-wide, no run starts within 700 ms of the previous run's end. */
    static class DelayJob {
        private final String node;

        DelayJob(String node) {
            this.node = node;
        }

        @Scheduled(fixedDelay = 700)
        @ClusterSingleton(name = "delay", lease = "20s")
        public void tick() {
            long start = System.nanoTime();
            Instant t = RunContext.current().orElseThrow().nominalFireTime();
            LOG.add(new FireLog.Run(t, node, start, System.nanoTime(), Thread.currentThread().getName()));
        }
    }

    /** Fires once a year, so during a test it only runs when called directly. */
    static class YearlyJob {
        private final AtomicInteger runs = new AtomicInteger();
        private volatile Instant lastFireTime;

        public int runs() {
            return runs.get();
        }

        public Instant lastFireTime() {
            return lastFireTime;
        }

        @Scheduled(cron = "0 0 0 1 1 *", zone = "UTC")
        @ClusterSingleton(name = "yearly", lease = "20s")
        public String report() {
            runs.incrementAndGet();
            lastFireTime = RunContext.current().orElseThrow().nominalFireTime();
            return "done";
        }
    }

    /** A nightly job whose cron zone is a property, so two nodes can disagree on it. */
    static class ZonedJob {
        @Scheduled(cron = "0 0 2 * * *", zone = "${test.zone}")
        @ClusterSingleton(name = "nightly", lease = "20s")
        public void nightly() {
            // never fires during a test: only its schedule matters
        }
    }
}
