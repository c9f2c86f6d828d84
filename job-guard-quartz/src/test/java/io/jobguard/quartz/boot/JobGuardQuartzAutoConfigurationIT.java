package io.jobguard.quartz.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.micrometer.JobGuardMetrics;
import io.jobguard.micrometer.MetricNames;
import io.jobguard.spring.boot.JobGuardMetricsAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.jobguard.quartz.ClusterSingletonListener;
import io.jobguard.redis.RedisLeaseStore;
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
import org.quartz.SchedulerException;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Boot auto-configuration guards the application's Quartz scheduler when a JobGuard bean exists. */
@WithRedis
class JobGuardQuartzAutoConfigurationIT {

    private static LettuceConnectionFactory connectionFactory;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardQuartzAutoConfiguration.class));

    @BeforeAll
    static void connect(RedisServerProcess redis) {
        connectionFactory = redis.connectionFactory(Duration.ofSeconds(1));
    }

    @AfterAll
    static void disconnect() {
        connectionFactory.destroy();
    }

    @Test
    void isRegisteredAsAnAutoConfiguration() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
                .contains(JobGuardQuartzAutoConfiguration.class.getName());
    }

    @Test
    void guardsTheSchedulerBeanAndItsFiringsReachTheEngine() {
        runner.withUserConfiguration(SchedulerConfig.class, EngineConfig.class).run(context -> {
            assertThat(context).hasSingleBean(QuartzGuardInstaller.class);
            Scheduler scheduler = context.getBean(Scheduler.class);
            assertThat(scheduler.getListenerManager().getTriggerListener(ClusterSingletonListener.DEFAULT_NAME))
                    .isInstanceOf(ClusterSingletonListener.class);
            assertThat(scheduler.getListenerManager().getJobListener(ClusterSingletonListener.DEFAULT_NAME))
                    .isInstanceOf(ClusterSingletonListener.class);

            List<JobEvent> events = new CopyOnWriteArrayList<>();
            context.getBean(JobGuard.class).addListener(events::add);
            scheduler.scheduleJob(JobBuilder.newJob(Guarded.class).withIdentity("boot", "g").build(),
                    TriggerBuilder.newTrigger().startNow().build());
            scheduler.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> !events.isEmpty());
            assertThat(events).singleElement().satisfies(e -> {
                assertThat(e.job()).isEqualTo("g.boot");
                assertThat(e.outcome()).isEqualTo(RunOutcome.RAN);
            });
            assertThat(context.getBean(QuartzGuardInstaller.class).guardedJobs().values())
                    .containsExactly(List.of("g.boot"));
        });
    }

    @Test
    void guardsASchedulerFactoryBeanBeforeItStartsFiring() {
        runner.withUserConfiguration(SchedulerFactoryBeanConfig.class, EngineConfig.class).run(context -> {
            assertThat(context).hasSingleBean(QuartzGuardInstaller.class);
            JobGuard guard = context.getBean(JobGuard.class);
            // the trigger fires as soon as Spring starts the scheduler, after the listener was installed
            await().atMost(Duration.ofSeconds(5)).until(() -> !guard.recentFires("g.factory").isEmpty());
            assertThat(context.getBean(QuartzGuardInstaller.class).guardedJobs().values())
                    .containsExactly(List.of("g.factory"));
        });
    }

    @Test
    void publishesTheScheduleGaugesOfTheGuardedJobsWithJobGuardsMetrics() {
        runner.withConfiguration(AutoConfigurations.of(JobGuardMetricsAutoConfiguration.class))
                .withUserConfiguration(CronSchedulerFactoryBeanConfig.class, EngineConfig.class, RegistryConfig.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(QuartzScheduleGaugesPublisher.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(JobGuardMetrics.class).bindTo(registry);
                    Gauge period = registry.find(MetricNames.JOB_PERIOD).tag(MetricNames.TAG_JOB, "g.cron").gauge();
                    assertThat(period).isNotNull();
                    assertThat(period.value()).isEqualTo(3600.0);
                    Gauge next = registry.find(MetricNames.JOB_NEXT_FIRE_TIME).tag(MetricNames.TAG_JOB, "g.cron")
                            .gauge();
                    assertThat(next).isNotNull();
                    assertThat(next.value()).isGreaterThan(Instant.now().getEpochSecond())
                            .isLessThanOrEqualTo(Instant.now().getEpochSecond() + 3600.0);
                    assertThat(registry.find(MetricNames.JOB_PAUSED).tag(MetricNames.TAG_JOB, "g.cron").gauge())
                            .isNotNull();
                });
    }

    @Test
    void guardsWithoutGaugesWhenMicrometerIsAbsent() {
        runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .withUserConfiguration(CronSchedulerFactoryBeanConfig.class, EngineConfig.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(QuartzGuardInstaller.class)
                        .doesNotHaveBean(QuartzScheduleGaugesPublisher.class));
    }

    @Test
    void backsOffWithoutAJobGuardBean() {
        runner.withUserConfiguration(SchedulerConfig.class).run(context -> {
            assertThat(context).doesNotHaveBean(QuartzGuardInstaller.class);
            assertThat(context.getBean(Scheduler.class).getListenerManager().getTriggerListeners()).isEmpty();
        });
    }

    @Test
    void canBeSwitchedOff() {
        runner.withUserConfiguration(SchedulerConfig.class, EngineConfig.class)
                .withPropertyValues("jobguard.quartz.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(QuartzGuardInstaller.class));
    }

    @Test
    void invalidGuardOptionsOnAScheduledJobFailTheStartupNamingTheJob() {
        runner.withUserConfiguration(BadJobSchedulerConfig.class, EngineConfig.class).run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("JobDataMap entry jobguard.lease of job 'g.bad'"));
    }

    /** A guarded job for the Boot test. */
    @ClusterSingleton(lease = "10s")
    public static final class Guarded implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            // guarded no-op: the test checks the engine's event
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SchedulerConfig {
        @Bean(destroyMethod = "shutdown")
        Scheduler scheduler() throws SchedulerException {
            return newScheduler();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SchedulerFactoryBeanConfig {
        @Bean
        SchedulerFactoryBean schedulerFactoryBean() {
            JobDetail job = JobBuilder.newJob(Guarded.class).withIdentity("factory", "g").storeDurably().build();
            SchedulerFactoryBean factory = new SchedulerFactoryBean();
            factory.setSchedulerName("boot-factory-" + UUID.randomUUID());
            Properties props = new Properties();
            props.setProperty("org.quartz.threadPool.threadCount", "2");
            factory.setQuartzProperties(props);
            factory.setJobDetails(job);
            factory.setTriggers(TriggerBuilder.newTrigger().forJob(job).startNow().build());
            return factory;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CronSchedulerFactoryBeanConfig {
        @Bean
        SchedulerFactoryBean schedulerFactoryBean() {
            JobDetail job = JobBuilder.newJob(Guarded.class).withIdentity("cron", "g").storeDurably().build();
            SchedulerFactoryBean factory = new SchedulerFactoryBean();
            factory.setSchedulerName("boot-cron-" + UUID.randomUUID());
            Properties props = new Properties();
            props.setProperty("org.quartz.threadPool.threadCount", "2");
            factory.setQuartzProperties(props);
            factory.setJobDetails(job);
            factory.setTriggers(TriggerBuilder.newTrigger().forJob(job)
                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 * * * ?")).build());
            return factory;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RegistryConfig {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadJobSchedulerConfig {
        @Bean(destroyMethod = "shutdown")
        Scheduler scheduler() throws SchedulerException {
            Scheduler scheduler = newScheduler();
            scheduler.scheduleJob(JobBuilder.newJob(Guarded.class).withIdentity("bad", "g")
                            .usingJobData(ClusterSingletonListener.LEASE, "forever").build(),
                    TriggerBuilder.newTrigger().startNow().build());
            return scheduler;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class EngineConfig {
        @Bean(destroyMethod = "close")
        JobGuard jobGuard() {
            return JobGuard.create(RedisLeaseStore.create(connectionFactory),
                    io.jobguard.JobGuardConfig.builder().namespace("boot-" + UUID.randomUUID())
                            .node(NodeConfig.builder().nodeId("boot").build()).build());
        }
    }

    private static Scheduler newScheduler() throws SchedulerException {
        Properties props = new Properties();
        props.setProperty("org.quartz.scheduler.instanceName", "boot-" + UUID.randomUUID());
        props.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        props.setProperty("org.quartz.threadPool.threadCount", "2");
        props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        return new StdSchedulerFactory(props).getScheduler();
    }
}
