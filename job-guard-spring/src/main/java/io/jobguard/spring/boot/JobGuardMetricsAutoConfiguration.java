package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import io.jobguard.micrometer.JobGuardMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Publishes job-guard's meters ({@code io.jobguard.micrometer.MetricNames}) when Micrometer and a
 * {@link MeterRegistry} are present: a {@link JobGuardMetrics} binder, which Spring Boot binds to
 * the registry, and the clock-skew gauge fed by the periodic skew check.
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
}
