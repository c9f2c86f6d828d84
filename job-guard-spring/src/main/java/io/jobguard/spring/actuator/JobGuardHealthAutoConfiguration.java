package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import io.jobguard.spring.boot.JobGuardProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 4.x: registers the {@code jobguard} {@link JobGuardHealthIndicator} when Boot's health support is on
 * the classpath, a {@link JobGuard} exists and {@code management.health.jobguard.enabled} is not false. Independent of
 * whether the {@code jobguard} endpoint is exposed. Its class condition names Boot 4's health type, so on Boot 3.5 it
 * stays off and {@code job-guard-spring-boot3} registers the indicator instead.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(JobGuard.class)
@ConditionalOnEnabledHealthIndicator("jobguard")
@EnableConfigurationProperties(JobGuardProperties.class)
public class JobGuardHealthAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardHealthAutoConfiguration() {
    }

    /**
     * The indicator.
     *
     * @param guard      the engine
     * @param properties supplies {@code jobguard.actuator.unhealthy-status}
     * @return the indicator
     * @throws IllegalArgumentException if the unhealthy status is blank or {@code UP}
     */
    @Bean
    @ConditionalOnMissingBean
    JobGuardHealthIndicator jobguardHealthIndicator(JobGuard guard, JobGuardProperties properties) {
        return new JobGuardHealthIndicator(new JobGuardHealthCheck(guard),
                new Status(JobGuardHealthCheck.unhealthyStatusCode(properties.actuator().unhealthyStatus())));
    }
}
