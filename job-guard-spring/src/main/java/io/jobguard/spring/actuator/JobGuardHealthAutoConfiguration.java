package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.util.Locale;

/**
 * Registers the {@code jobguard} {@link JobGuardHealthIndicator} when Boot's health support is on
 * the classpath, a {@link JobGuard} exists and {@code management.health.jobguard.enabled} is not
 * false. Independent of whether the {@code jobguard} endpoint is exposed.
 */
@AutoConfiguration(after = JobGuardAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(JobGuard.class)
@ConditionalOnEnabledHealthIndicator("jobguard")
public class JobGuardHealthAutoConfiguration {

    static final String UNHEALTHY_STATUS_PROPERTY = "jobguard.actuator.unhealthy-status";

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardHealthAutoConfiguration() {
    }

    /**
     * The indicator.
     *
     * @param guard       the engine
     * @param environment supplies {@code jobguard.actuator.unhealthy-status}
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean
    JobGuardHealthIndicator jobguardHealthIndicator(JobGuard guard, Environment environment) {
        String status = environment.getProperty(UNHEALTHY_STATUS_PROPERTY, "UNKNOWN").trim().toUpperCase(Locale.ROOT);
        if (status.isEmpty() || status.equals("UP")) {
            throw new IllegalArgumentException(UNHEALTHY_STATUS_PROPERTY + " must name a status other than UP "
                    + "(UNKNOWN, DOWN, OUT_OF_SERVICE, ...), got '" + status + "'");
        }
        return new JobGuardHealthIndicator(guard, new Status(status));
    }
}
