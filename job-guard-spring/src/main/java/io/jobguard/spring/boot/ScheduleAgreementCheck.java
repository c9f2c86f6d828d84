package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.monitor.ScheduleAgreementMonitor;
import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.spring.firing.ScheduleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs job-guard's {@link ScheduleAgreementMonitor} while the context runs, over every guarded
 * {@code @Scheduled} job with a recurring schedule and every contributed job (Quartz) whose schedule
 * is known, so that nodes firing one job on different schedules (DESIGN §2: "warn if zones differ")
 * are named in a WARN.
 */
final class ScheduleAgreementCheck implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ScheduleAgreementCheck.class);

    private final ScheduleAgreementMonitor monitor;
    private final RateLimitedLog failures = new RateLimitedLog(Clock.systemUTC(), Duration.ofMinutes(1));
    private final ObjectProvider<GuardedJobRegistry> registry;
    private final ObjectProvider<GuardedJobsContributor> contributors;

    ScheduleAgreementCheck(JobGuard guard, Duration interval, ObjectProvider<GuardedJobRegistry> registry,
                           ObjectProvider<GuardedJobsContributor> contributors) {
        if (interval == null || interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("jobguard.schedule-check-interval must be positive, got " + interval);
        }
        this.registry = registry;
        this.contributors = contributors;
        this.monitor = new ScheduleAgreementMonitor(guard, this::schedules, interval);
    }

    /** This node's schedule of each job, by job name; one-time and disabled tasks have none to compare. */
    Map<String, String> schedules() {
        Map<String, String> schedules = new TreeMap<>();
        GuardedJobRegistry jobs = registry.getIfAvailable();
        if (jobs != null) {
            for (GuardedJob job : jobs.all()) {
                ScheduleSpec spec = job.schedule();
                if (spec != null && spec.kind() != ScheduleSpec.Kind.ONE_TIME && spec.kind() != ScheduleSpec.Kind.DISABLED) {
                    schedules.put(job.options().name(), spec.describe());
                }
            }
        }
        contributors.orderedStream().forEach(contributor -> {
            try {
                contributor.guardedJobs().stream().filter(j -> j.schedule() != null)
                        .forEach(j -> schedules.put(j.name(), j.schedule()));
            } catch (RuntimeException e) {
                failures.warn(log, "contributor|" + contributor, "job-guard: contributor {} failed while listing "
                        + "schedules (its jobs' schedules are not compared across nodes): {}", contributor,
                        RateLimitedLog.causeChain(e));
            }
        });
        return schedules;
    }

    ScheduleAgreementMonitor monitor() {
        return monitor;
    }

    @Override
    public void start() {
        monitor.start();
    }

    @Override
    public void stop() {
        monitor.close();
    }

    @Override
    public boolean isRunning() {
        return monitor.isRunning();
    }
}
