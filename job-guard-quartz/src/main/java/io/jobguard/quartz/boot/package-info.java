/**
 * Spring Boot auto-configuration that guards the application's Quartz schedulers with job-guard.
 * {@link io.jobguard.quartz.boot.JobGuardQuartzAutoConfiguration} defines the beans:
 * {@link io.jobguard.quartz.boot.QuartzGuardInstaller} installs a {@code ClusterSingletonListener} on each Quartz
 * scheduler bean after all singletons exist and before the schedulers start, so no firing escapes the guard;
 * {@link io.jobguard.quartz.boot.QuartzGuardedJobsContributor} shows the guarded Quartz jobs on the {@code jobguard}
 * actuator endpoint; the package-private {@code QuartzScheduleGaugesPublisher} publishes their schedule gauges when a
 * {@code JobGuardMetrics} bean exists.
 */
package io.jobguard.quartz.boot;
