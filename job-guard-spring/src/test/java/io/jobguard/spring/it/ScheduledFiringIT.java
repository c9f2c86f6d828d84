package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.spring.EnableJobGuard;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scheduled firing is admitted once, for the fire time its trigger named, and the method runs
 * under that permit; a call of the method made while the thread already runs under a permit of the
 * same job is part of that run, not a second admission (which the held lease would refuse).
 */
@WithRedis
class ScheduledFiringIT {

    static final BlockingQueue<RunContext> RUNS = new LinkedBlockingQueue<>();

    @Test
    void eachFiringRunsUnderOnePermitForItsNominalTimeAndNestedCallsShareIt(RedisServerProcess redis)
            throws InterruptedException {
        LettuceConnectionFactory factory = redis.connectionFactory();
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean(LettuceConnectionFactory.class, () -> factory);
            context.register(FiringApp.class);
            context.refresh();
            JobGuard guard = context.getBean(JobGuard.class);

            RunContext first = RUNS.poll(10, TimeUnit.SECONDS);
            RunContext second = RUNS.poll(10, TimeUnit.SECONDS);
            assertThat(first).isNotNull();
            assertThat(second).isNotNull();
            assertThat(first.nominalFireTime().toEpochMilli() % 1000).as("a cron second, not the clock").isZero();
            assertThat(second.nominalFireTime()).isAfter(first.nominalFireTime());
            assertThat(second.fencingToken()).as("each firing acquires its own lease").isGreaterThan(first.fencingToken());
            assertThat(guard.recentFires("firing")).extracting(r -> r.nominalFireTime())
                    .contains(first.nominalFireTime(), second.nominalFireTime());

            // the method called inside a run of its own job (fire time far from any scheduled one)
            Instant t = Instant.parse("2001-01-01T00:00:00Z");
            RUNS.clear();
            RunOutcome outcome = guard.run(JobOptions.builder("firing", Duration.ofSeconds(10)).build(), t,
                    () -> context.getBean(FiringJob.class).run());
            assertThat(outcome).isEqualTo(RunOutcome.RAN);
            RunContext nested = RUNS.stream().filter(c -> c.nominalFireTime().equals(t)).findFirst().orElse(null);
            assertThat(nested).as("the nested call ran, under the enclosing run's permit").isNotNull();
        } finally {
            factory.destroy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableJobGuard
    static class FiringApp {

        @Bean(destroyMethod = "close")
        JobGuard jobGuard(LettuceConnectionFactory factory) {
            return JobGuard.create(RedisLeaseStore.create(factory, "firing"),
                    JobGuardConfig.builder().node(NodeConfig.builder().nodeId("firing-node").build())
                            .namespace("firing").build());
        }

        @Bean
        FiringJob firingJob() {
            return new FiringJob();
        }
    }

    static class FiringJob {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "firing", lease = "10s")
        public void run() {
            RUNS.add(RunContext.current().orElseThrow());
        }
    }
}
