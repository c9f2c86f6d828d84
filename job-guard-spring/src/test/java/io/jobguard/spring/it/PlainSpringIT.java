package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.RunContext;
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

import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code @EnableJobGuard} in a plain Spring context (no Boot) with the application's own JobGuard bean. */
@WithRedis
class PlainSpringIT {

    static final BlockingQueue<Instant> FIRE_TIMES = new LinkedBlockingQueue<>();

    @Test
    void enableJobGuardGuardsScheduledMethodsWithTheirNominalFireTime(RedisServerProcess redis)
            throws InterruptedException {
        LettuceConnectionFactory factory = redis.connectionFactory();
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean(LettuceConnectionFactory.class, () -> factory);
            context.register(PlainApp.class);
            context.refresh();
            Instant first = FIRE_TIMES.poll(10, TimeUnit.SECONDS);
            assertThat(first).isNotNull();
            assertThat(first.toEpochMilli() % 1000).isZero();
            assertThat(context.getBean(JobGuard.class).recentFires("plain")).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.nodeId()).isEqualTo("plain-node"));
        } finally {
            factory.destroy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableJobGuard
    static class PlainApp {

        @Bean(destroyMethod = "close")
        JobGuard jobGuard(LettuceConnectionFactory factory) {
            return JobGuard.create(RedisLeaseStore.create(factory, "plain"),
                    JobGuardConfig.custom().nodeId("plain-node").namespace("plain").build());
        }

        @Bean
        Job job() {
            return new Job();
        }
    }

    static class Job {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "plain", lease = "10s")
        public void run() {
            FIRE_TIMES.add(RunContext.current().orElseThrow().nominalFireTime());
        }
    }
}
