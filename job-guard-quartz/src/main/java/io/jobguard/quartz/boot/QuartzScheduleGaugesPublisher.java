package io.jobguard.quartz.boot;

import io.jobguard.micrometer.JobGuardMetrics;
import io.jobguard.quartz.ClusterSingletonListener;
import io.jobguard.quartz.QuartzScheduleGauges;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Publishes the schedule gauges of the guarded jobs of every scheduler the {@link QuartzGuardInstaller} guards, when
 * a {@link JobGuardMetrics} bean exists: it asks the installer at construction, so it sees every listener installed
 * after all singletons exist. A scheduler whose jobs cannot be read fails the startup.
 * A {@link SmartInitializingSingleton}, so that lazy initialisation does not leave it uncreated.
 */
final class QuartzScheduleGaugesPublisher implements SmartInitializingSingleton {

    QuartzScheduleGaugesPublisher(QuartzGuardInstaller installer, ObjectProvider<JobGuardMetrics> metrics) {
        installer.whenInstalled((scheduler, listener) -> metrics.ifAvailable(m -> publish(scheduler, listener, m)));
    }

    private static void publish(Scheduler scheduler, ClusterSingletonListener listener, JobGuardMetrics metrics) {
        try {
            QuartzScheduleGauges.publish(scheduler, listener, metrics);
        } catch (SchedulerException e) {
            throw new IllegalStateException("job-guard: cannot publish the schedule gauges of Quartz scheduler: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        // the installer calls back when it installs its listeners
    }
}
