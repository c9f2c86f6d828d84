package io.jobguard.quartz.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.spring.actuator.JobGuardEndpoint;
import io.jobguard.spring.actuator.JobGuardEndpointAutoConfiguration;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Guarded Quartz jobs appear on the jobguard actuator endpoint with their live run lease and recent fires. */
@WithRedis
class QuartzActuatorIT {

    private static LettuceConnectionFactory connectionFactory;
    static volatile CountDownLatch release = new CountDownLatch(1);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardQuartzAutoConfiguration.class,
                    JobGuardEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=jobguard");

    @BeforeAll
    static void connect(RedisServerProcess redis) {
        connectionFactory = redis.connectionFactory(Duration.ofSeconds(1));
    }

    @AfterAll
    static void disconnect() {
        connectionFactory.destroy();
    }

    @Test
    void endpointListsTheQuartzJobItsRunLeaseAndRecentFires() {
        release = new CountDownLatch(1);
        runner.withUserConfiguration(HeldJobConfig.class).run(context -> {
            try {
                JobGuardEndpoint endpoint = context.getBean(JobGuardEndpoint.class);
                await().atMost(Duration.ofSeconds(10)).until(() -> !endpoint.report().runLeases().isEmpty());
                JobGuardEndpoint.NodeReport report = endpoint.report();
                assertThat(report.jobs()).singleElement().satisfies(job -> {
                    assertThat(job.name()).isEqualTo("quartz-held");
                    assertThat(job.method()).contains("Quartz job g.held").contains(Held.class.getName());
                    assertThat(job.type()).isEqualTo("RETURN");
                    assertThat(job.lease()).isEqualTo("PT30S");
                    assertThat(job.busyGrace()).isEqualTo("PT1S");
                    assertThat(job.schedule()).startsWith("cron \"* * * * * ?\"");
                    assertThat(job.nextNominalFireTime()).isNotNull();
                });
                assertThat(report.runLeases()).singleElement().satisfies(lease -> {
                    assertThat(lease.job()).isEqualTo("quartz-held");
                    assertThat(lease.holder()).isEqualTo("quartz-node");
                    assertThat(lease.fencingToken()).isPositive();
                });
                JobGuardEndpoint.JobDetail detail = endpoint.job("quartz-held");
                assertThat(detail.runLease().holder()).isEqualTo("quartz-node");
                assertThat(detail.recentFires()).isNotEmpty()
                        .allSatisfy(f -> assertThat(f.node()).isEqualTo("quartz-node"));
                assertThat(detail.recentFires().get(0).outcome()).as("the held run").isEqualTo("STARTED");
                assertThat(detail.recentFires().get(0).fencingToken()).isEqualTo(detail.runLease().fencingToken());
                assertThat(endpoint.job("no-such-job")).isNull();
            } finally {
                release.countDown();
            }
        });
    }

    @Test
    void aJobScheduledAfterStartupIsListedBeforeItFirstFires() {
        release = new CountDownLatch(1);
        runner.withUserConfiguration(HeldJobConfig.class).run(context -> {
            try {
                JobDetail later = JobBuilder.newJob(Later.class).withIdentity("later", "g").build();
                context.getBean(Scheduler.class).scheduleJob(later, TriggerBuilder.newTrigger()
                        .withSchedule(CronScheduleBuilder.cronSchedule("0 0 0 1 1 ? 2099")).build());
                assertThat(context.getBean(JobGuardEndpoint.class).report().jobs())
                        .filteredOn(job -> job.name().equals("g.later")).singleElement()
                        .satisfies(job -> assertThat(job.schedule()).startsWith("cron \"0 0 0 1 1 ? 2099\""));
            } finally {
                release.countDown();
            }
        });
    }

    /** Scheduled far in the future: it never fires during the test. */
    @ClusterSingleton(lease = "10s")
    public static final class Later implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            // never runs
        }
    }

    /** Every second; holds its run lease until the test releases it. */
    @ClusterSingleton(name = "quartz-held", lease = "30s")
    public static final class Held implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class HeldJobConfig {
        @Bean
        SchedulerFactoryBean schedulerFactoryBean() {
            JobDetail job = JobBuilder.newJob(Held.class).withIdentity("held", "g").storeDurably().build();
            SchedulerFactoryBean factory = new SchedulerFactoryBean();
            factory.setSchedulerName("actuator-" + UUID.randomUUID());
            Properties props = new Properties();
            props.setProperty("org.quartz.threadPool.threadCount", "2");
            factory.setQuartzProperties(props);
            factory.setJobDetails(job);
            factory.setTriggers(TriggerBuilder.newTrigger().forJob(job)
                    .withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?")).build());
            factory.setWaitForJobsToCompleteOnShutdown(false);
            return factory;
        }

        @Bean(destroyMethod = "close")
        JobGuard jobGuard() {
            return JobGuard.create(RedisLeaseStore.create(connectionFactory),
                    JobGuardConfig.builder().namespace("actuator-" + UUID.randomUUID()).node(NodeConfig.builder()
                            .nodeId("quartz-node").build()).build());
        }
    }
}
