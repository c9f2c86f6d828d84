package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import io.jobguard.micrometer.JobGuardMetrics;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Publishes job-guard's meters ({@code io.jobguard.micrometer.MetricNames}) when Micrometer and a
 * {@link MeterRegistry} are present. They are a {@link JobGuardMetrics} binder, which Spring Boot binds to
 * the registry, the clock-skew gauge fed by the periodic skew check, and the schedule gauges of every guarded
 * {@code @Scheduled} job.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class, afterName = {
        AutoConfigurationNames.METRICS_BOOT4_REGISTRY, AutoConfigurationNames.METRICS_BOOT4_COMPOSITE,
        AutoConfigurationNames.METRICS_BOOT4_SIMPLE, AutoConfigurationNames.METRICS_BOOT3_REGISTRY,
        AutoConfigurationNames.METRICS_BOOT3_COMPOSITE, AutoConfigurationNames.METRICS_BOOT3_SIMPLE})
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
@ConditionalOnBean({MeterRegistry.class, JobGuard.class})
public class JobGuardMetricsAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardMetricsAutoConfiguration() {
    }

    /**
     * The meter binder.
     *
     * @param guard the engine
     * @return the binder
     */
    @Bean
    @ConditionalOnMissingBean
    JobGuardMetrics jobGuardMetrics(JobGuard guard) {
        return new JobGuardMetrics(guard);
    }

    /**
     * Feeds clock-skew measurements to the gauge.
     *
     * @param metrics the binder
     * @return the sink
     */
    @Bean
    @ConditionalOnMissingBean
    ClockSkewSink jobGuardClockSkewGauge(JobGuardMetrics metrics) {
        return metrics::recordClockSkew;
    }

    /**
     * Publishes the schedule of every guarded {@code @Scheduled} method as gauges.
     *
     * @param metrics the binder
     * @param jobs    the guarded methods, absent without job-guard's scheduling integration
     * @return the initializer
     */
    @Bean
    @ConditionalOnMissingBean
    static ScheduleGauges jobGuardScheduleGauges(ObjectProvider<JobGuardMetrics> metrics,
                                                 ObjectProvider<GuardedJobRegistry> jobs) {
        return new ScheduleGauges(metrics, jobs);
    }

    /**
     * Once all singletons exist (each guarded bean has registered its jobs by then), publishes every guarded
     * {@code @Scheduled} method's next fire time and period, read by the clock of the scheduler that drives it.
     */
    static final class ScheduleGauges implements SmartInitializingSingleton {

        private final ObjectProvider<JobGuardMetrics> metrics;
        private final ObjectProvider<GuardedJobRegistry> jobs;

        ScheduleGauges(ObjectProvider<JobGuardMetrics> metrics, ObjectProvider<GuardedJobRegistry> jobs) {
            this.metrics = metrics;
            this.jobs = jobs;
        }

        @Override
        public void afterSingletonsInstantiated() {
            jobs.ifAvailable(registry -> metrics.ifAvailable(binder -> {
                for (GuardedJob job : registry.all()) {
                    binder.schedule(job.options().name(), () -> job.schedule().nextAfter(job.clock().instant()),
                            () -> job.schedule().periodAfter(job.clock().instant()));
                }
            }));
        }
    }
}
