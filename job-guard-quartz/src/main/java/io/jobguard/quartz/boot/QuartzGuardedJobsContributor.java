package io.jobguard.quartz.boot;

import io.jobguard.JobOptions;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.quartz.ClusterSingletonListener;
import io.jobguard.quartz.QuartzSchedules;
import io.jobguard.spring.GuardedJobsContributor;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Shows the Quartz jobs that job-guard guards on the {@code jobguard} actuator endpoint: job name,
 * Quartz key and class, guard options, trigger schedules and the next fire time. Reads the
 * schedulers on every call; a scheduler that cannot be read contributes nothing.
 */
public final class QuartzGuardedJobsContributor implements GuardedJobsContributor {

    private static final Logger log = LoggerFactory.getLogger(QuartzGuardedJobsContributor.class);

    private final RateLimitedLog failures = new RateLimitedLog(Clock.systemUTC(), Duration.ofMinutes(1));
    private final QuartzGuardInstaller installer;
    private final ObjectProvider<Scheduler> schedulers;

    /**
     * Creates the contributor.
     *
     * @param installer  knows the listeners installed per scheduler
     * @param schedulers the application's schedulers
     */
    public QuartzGuardedJobsContributor(QuartzGuardInstaller installer, ObjectProvider<Scheduler> schedulers) {
        this.installer = Objects.requireNonNull(installer, "installer");
        this.schedulers = Objects.requireNonNull(schedulers, "schedulers");
    }

    @Override
    public List<ContributedJob> guardedJobs() {
        Map<String, ClusterSingletonListener> listeners = installer.listeners();
        List<ContributedJob> out = new ArrayList<>();
        for (Scheduler scheduler : schedulers.orderedStream().toList()) {
            try {
                ClusterSingletonListener listener = listeners.get(scheduler.getSchedulerName());
                if (listener == null) {
                    continue;
                }
                for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
                    JobDetail detail = scheduler.getJobDetail(key);
                    // resolved now, so a job added after install shows before its first firing
                    Optional<JobOptions> options = detail == null ? Optional.empty() : listener.optionsOf(detail);
                    if (options.isPresent()) {
                        out.add(describe(scheduler, detail, options.get()));
                    }
                }
            } catch (SchedulerException e) {
                // an unreadable scheduler (shut down, store error) shows nothing rather than failing the report,
                // and says so once a minute per scheduler
                failures.warn(log, "scheduler|" + scheduler, "job-guard: could not list the guarded jobs of Quartz "
                        + "scheduler {}: {}", scheduler, RateLimitedLog.causeChain(e));
            }
        }
        return out;
    }

    private static ContributedJob describe(Scheduler scheduler, JobDetail detail, JobOptions options)
            throws SchedulerException {
        JobKey key = detail.getKey();
        // without job-guard's recovery-pass trigger, which fires no run of the job
        List<Trigger> triggers = QuartzSchedules.scheduleTriggers(scheduler, key);
        String schedule = QuartzSchedules.of(triggers);
        Instant next = triggers.stream().map(Trigger::getNextFireTime).filter(Objects::nonNull).map(Date::toInstant)
                .min(Instant::compareTo).orElse(null);
        String source = "Quartz job " + key.getGroup() + "." + key.getName() + " on scheduler "
                + scheduler.getSchedulerName()
                + (detail.getJobClass() == null ? "" : " (" + detail.getJobClass().getName() + ")");
        return new ContributedJob(options.name(), source, options.type().name(), options.lease().toString(),
                options.waitFor().toString(), options.busyGrace().toString(), schedule, next);
    }
}
