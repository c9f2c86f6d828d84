package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
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
import org.springframework.scheduling.annotation.ScheduledAnnotationBeanPostProcessor;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.config.ScheduledTask;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code @EnableJobGuard} in a plain Spring context (no Boot) with the application's own JobGuard bean. */
@WithRedis
class PlainSpringIT {

    static final BlockingQueue<Instant> FIRE_TIMES = new LinkedBlockingQueue<>();
    static final BlockingQueue<String> OTHER_THREADS = new LinkedBlockingQueue<>();

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

            // @Scheduled(scheduler = "other") still reaches its own scheduler through the decorator
            assertThat(OTHER_THREADS.poll(10, TimeUnit.SECONDS)).startsWith("other-");

            // the actuator's scheduledtasks endpoint reads next executions from the futures' getDelay
            // (null only while a firing is between its start and its rescheduling, as with Spring's own futures)
            List<ScheduledTask> tasks = List.copyOf(context.getBean(ScheduledAnnotationBeanPostProcessor.class)
                    .getScheduledTasks());
            assertThat(tasks).hasSize(2);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(tasks).allSatisfy(task ->
                    assertThat(task.nextExecution()).isNotNull()
                            .isBetween(Instant.now().minusMillis(50), Instant.now().plusSeconds(2))));
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
                    JobGuardConfig.builder().node(NodeConfig.builder().nodeId("plain-node").build()).namespace("plain")
                            .build());
        }

        @Bean
        Job job() {
            return new Job();
        }

        @Bean
        ThreadPoolTaskScheduler taskScheduler() {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("default-");
            return scheduler;
        }

        @Bean
        ThreadPoolTaskScheduler other() {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("other-");
            return scheduler;
        }
    }

    static class Job {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "plain", lease = "10s")
        public void run() {
            FIRE_TIMES.add(RunContext.current().orElseThrow().nominalFireTime());
        }

        @Scheduled(cron = "* * * * * *", scheduler = "other")
        @ClusterSingleton(name = "plain-other", lease = "10s")
        public void onOther() {
            RunContext.current().orElseThrow();
            OTHER_THREADS.add(Thread.currentThread().getName());
        }
    }
}
