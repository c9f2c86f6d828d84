package io.jobguard.spring.firing;

/**
 * What the startup check does when a {@code @ClusterSingleton} method's schedule does not go through job-guard's
 * scheduler: {@code fail} the startup or {@code warn}. The check uses the context's bean of this type, or
 * {@code fail} when there is none; the Spring Boot auto-configuration defines it from
 * {@code jobguard.scheduler-bypass}. The mode is checked when the check is created, naming the property.
 *
 * @param mode {@code fail} or {@code warn}, case-insensitive; {@code null}: {@code fail}
 */
public record SchedulerBypass(String mode) {
}
