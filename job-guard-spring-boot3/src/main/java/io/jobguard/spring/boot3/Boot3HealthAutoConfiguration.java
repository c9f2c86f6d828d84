package io.jobguard.spring.boot3;

import io.jobguard.JobGuard;
import io.jobguard.spring.actuator.JobGuardHealthCheck;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import io.jobguard.spring.boot.JobGuardProperties;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 3.5: registers the {@code jobguard} health indicator, with the same details and statuses as on Boot
 * 4 ({@link JobGuardHealthCheck}). It is on when Boot 3.5's health support is on the class path, a {@link JobGuard}
 * exists and {@code management.health.jobguard.enabled} is not false.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(JobGuard.class)
@ConditionalOnEnabledHealthIndicator("jobguard")
@EnableConfigurationProperties(JobGuardProperties.class)
public class Boot3HealthAutoConfiguration {

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public Boot3HealthAutoConfiguration() {
    }

    /**
     * The indicator, named {@code jobguard} on the health endpoint.
     *
     * @param guard      the engine
     * @param properties supplies {@code jobguard.actuator.unhealthy-status}
     * @return the indicator
     * @throws IllegalArgumentException if the unhealthy status is blank or {@code UP}
     */
    @Bean
    @ConditionalOnMissingBean(name = "jobguardHealthIndicator")
    HealthIndicator jobguardHealthIndicator(JobGuard guard, JobGuardProperties properties) {
        JobGuardHealthCheck check = new JobGuardHealthCheck(guard);
        Status unhealthy = new Status(JobGuardHealthCheck.unhealthyStatusCode(properties.actuator().unhealthyStatus()));
        return () -> {
            JobGuardHealthCheck.Reading reading = check.check();
            return Health.status(reading.healthy() ? Status.UP : unhealthy).withDetails(reading.details()).build();
        };
    }
}
