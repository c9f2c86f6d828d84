package io.jobguard.spring.actuator;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import java.util.Objects;

/**
 * The {@code jobguard} health indicator on Spring Boot 4.x: {@link JobGuardHealthCheck}'s reading as Boot's
 * {@code Health}. Healthy is {@code UP}; unhealthy is the configured status, by default {@code UNKNOWN}, which Boot
 * ranks below {@code UP}, so job-guard alone does not take the application out of service (a node that cannot reach
 * Redis skips its guarded firings, fail closed, and serves everything else). Set
 * {@code jobguard.actuator.unhealthy-status=DOWN} (or {@code OUT_OF_SERVICE}) to take it out. On Boot 3.5,
 * {@code job-guard-spring-boot3} registers the same indicator through Boot 3.5's health types.
 */
public final class JobGuardHealthIndicator implements HealthIndicator {

    private final JobGuardHealthCheck check;
    private final Status unhealthy;

    /**
     * Creates the indicator.
     *
     * @param check     the check
     * @param unhealthy the status to report when the store is unreachable or the skew is too large
     */
    public JobGuardHealthIndicator(JobGuardHealthCheck check, Status unhealthy) {
        this.check = Objects.requireNonNull(check, "check");
        this.unhealthy = Objects.requireNonNull(unhealthy, "unhealthy");
    }

    @Override
    public Health health() {
        JobGuardHealthCheck.Reading reading = check.check();
        return Health.status(reading.healthy() ? Status.UP : unhealthy).withDetails(reading.details()).build();
    }
}
