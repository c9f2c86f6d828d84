package io.jobguard.quartz.boot;

import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.JobGuard;
import io.jobguard.micrometer.JobGuardMetrics;
import org.quartz.Scheduler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot auto-configuration that installs a
 * {@link io.jobguard.quartz.ClusterSingletonListener} on every Quartz {@link Scheduler} bean (the
 * Boot-managed one included) before the schedulers start. It is on when the application has a {@link JobGuard}
 * bean. With job-guard-spring present, the guarded Quartz jobs also appear on the
 * {@code jobguard} actuator endpoint, with their run leases and recent fires, and with Micrometer and a
 * {@code JobGuardMetrics} bean they get the schedule gauges ({@code jobguard.job.next.fire.time},
 * {@code jobguard.job.period}, {@code jobguard.job.paused}). Guarded jobs are those opted in with {@code @ClusterSingleton} or the
 * {@code jobguard.*} JobDataMap entries; outcomes reach the engine's listeners (metrics, actuator)
 * like any other guarded job. Turn it off with {@code jobguard.quartz.enabled=false}; a scheduler
 * that already has a listener of the default name (installed by the application) is left alone.
 */
// Boot's Quartz auto-configuration by name on each line: Boot 4.x, then Boot 3.5 (absent names are ignored)
@AutoConfiguration(afterName = {"io.jobguard.spring.boot.JobGuardAutoConfiguration",
        "org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration",
        "org.springframework.boot.autoconfigure.quartz.QuartzAutoConfiguration"})
@ConditionalOnClass(Scheduler.class)
@ConditionalOnBean({JobGuard.class, Scheduler.class})
@ConditionalOnBooleanProperty(name = "jobguard.quartz.enabled", matchIfMissing = true)
public final class JobGuardQuartzAutoConfiguration {

    /** Created by Spring Boot. */
    public JobGuardQuartzAutoConfiguration() {
    }

    /**
     * Installs the listener on the schedulers once every singleton exists.
     *
     * @param jobGuard   the node's engine
     * @param schedulers the application's Quartz schedulers
     * @return the installer
     */
    @Bean
    @ConditionalOnMissingBean
    static QuartzGuardInstaller jobGuardQuartzInstaller(ObjectProvider<JobGuard> jobGuard,
                                                        ObjectProvider<Scheduler> schedulers) {
        return new QuartzGuardInstaller(jobGuard, schedulers);
    }

    /**
     * Publishes the schedule gauges of the guarded Quartz jobs ({@link io.jobguard.quartz.QuartzScheduleGauges}) when
     * Micrometer is present and the application has a {@link JobGuardMetrics} bean (which
     * job-guard-spring's metrics auto-configuration creates when a {@code MeterRegistry} exists).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class ScheduleGauges {

        /**
         * The publisher.
         *
         * @param installer the installer, which tells it each listener it installs
         * @param metrics   the meter binder, looked up once the listeners are installed
         * @return the publisher
         */
        @Bean
        @ConditionalOnMissingBean
        static QuartzScheduleGaugesPublisher jobGuardQuartzScheduleGauges(
                QuartzGuardInstaller installer, ObjectProvider<JobGuardMetrics> metrics) {
            return new QuartzScheduleGaugesPublisher(installer, metrics);
        }
    }

    /** Lists the guarded Quartz jobs on the jobguard actuator endpoint when job-guard-spring is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.jobguard.spring.GuardedJobsContributor")
    static class ActuatorContribution {

        /**
         * The contributor.
         *
         * @param installer  the installer, which knows the listeners
         * @param schedulers the schedulers
         * @return the contributor
         */
        @Bean
        @ConditionalOnMissingBean
        QuartzGuardedJobsContributor jobGuardQuartzGuardedJobsContributor(QuartzGuardInstaller installer,
                                                                          ObjectProvider<Scheduler> schedulers) {
            return new QuartzGuardedJobsContributor(installer, schedulers);
        }
    }
}
