package io.jobguard.quartz;

import io.jobguard.JobOptions;
import io.jobguard.micrometer.JobGuardMetrics;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.SchedulerListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Publishes the schedule of every Quartz job a {@link ClusterSingletonListener} guards as the gauges of
 * {@link JobGuardMetrics#schedule}, as Spring's {@code @Scheduled} jobs have them. The gauges are
 * {@code jobguard.job.next.fire.time}, {@code jobguard.job.period} and {@code jobguard.job.paused}, so that an alert
 * on a job's periods since its last run covers Quartz jobs too. Needs Micrometer on the class path; Spring Boot does this on its own
 * when a {@link JobGuardMetrics} bean exists. Without Spring:
 * <pre>{@code
 * ClusterSingletonListener listener = ClusterSingletonListener.install(scheduler, jobGuard);
 * QuartzScheduleGauges.publish(scheduler, listener, metrics);
 * }</pre>
 *
 * <p>Guarantees: every guarded job scheduled at the call, and every guarded job scheduled later on that scheduler,
 * gets its gauges once, under its job-guard name (the first {@code JobKey} wins when two share a name; a name whose
 * schedule another adapter published already keeps that one, with a WARN). The gauges
 * read the scheduler's triggers of the job at every scrape: the next fire time is the earliest next fire time of
 * its triggers; the period is, for a simple trigger, its repeat interval, and for any other trigger (cron, calendar
 * or daily interval) the gap between that next fire time and the trigger's fire time after it. A job without a
 * next fire time (no trigger, or every trigger done) reads NaN, as does a scheduler that cannot be read.
 */
public final class QuartzScheduleGauges {

    private static final Logger log = LoggerFactory.getLogger(QuartzScheduleGauges.class);

    private final Scheduler scheduler;
    private final ClusterSingletonListener listener;
    private final JobGuardMetrics metrics;
    /** Job-guard job name to the Quartz job whose triggers its gauges read. */
    private final Map<String, JobKey> published = new ConcurrentHashMap<>();

    private QuartzScheduleGauges(Scheduler scheduler, ClusterSingletonListener listener, JobGuardMetrics metrics) {
        this.scheduler = scheduler;
        this.listener = listener;
        this.metrics = metrics;
    }

    /**
     * Publishes the gauges of the guarded jobs scheduled now, and of those scheduled on {@code scheduler} later.
     *
     * @param scheduler the scheduler the listener is installed on
     * @param listener  the listener, which knows the guarded jobs and their job-guard names
     * @param metrics   the binder of the node's engine
     * @return the publisher, registered as a scheduler listener of {@code scheduler}
     * @throws SchedulerException if the scheduler's jobs cannot be read or the listener not registered
     */
    public static QuartzScheduleGauges publish(Scheduler scheduler, ClusterSingletonListener listener,
                                               JobGuardMetrics metrics) throws SchedulerException {
        QuartzScheduleGauges gauges = new QuartzScheduleGauges(Objects.requireNonNull(scheduler, "scheduler"),
                Objects.requireNonNull(listener, "listener"), Objects.requireNonNull(metrics, "metrics"));
        // registered first, so a job scheduled during the scan below is not left out (publishing is idempotent)
        scheduler.getListenerManager().addSchedulerListener(gauges.new Scheduled());
        for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
            gauges.publish(key);
        }
        return gauges;
    }

    /**
     * The jobs whose gauges this publisher registered.
     *
     * @return job-guard job name to the Quartz job whose triggers its gauges read
     */
    public Map<String, JobKey> published() {
        return Map.copyOf(published);
    }

    private void publish(JobKey key) throws SchedulerException {
        JobDetail detail = scheduler.getJobDetail(key);
        Optional<JobOptions> options = detail == null ? Optional.empty() : listener.optionsOf(detail);
        if (options.isEmpty() || QuartzSchedules.scheduleTriggers(scheduler, key).isEmpty()) {
            return;
        }
        String name = options.get().name();
        synchronized (published) {
            JobKey first = published.putIfAbsent(name, key);
            if (first == null) {
                try {
                    metrics.schedule(name, () -> nextNominalFireTime(key), () -> period(key));
                } catch (IllegalStateException e) {
                    // another adapter (a @Scheduled method, another scheduler) published this name first
                    log.warn("job-guard: no schedule gauges for Quartz job {}: {}", key, e.getMessage());
                }
            } else if (!first.equals(key)) {
                log.debug("job-guard: Quartz job {} shares job name '{}' with {}, whose schedule the gauges show",
                        key, name, first);
            }
        }
    }

    private Instant nextNominalFireTime(JobKey key) {
        Trigger next = next(key);
        return next == null ? null : next.getNextFireTime().toInstant();
    }

    private Duration period(JobKey key) {
        Trigger next = next(key);
        if (next == null) {
            return null;
        }
        if (next instanceof SimpleTrigger simple && simple.getRepeatInterval() > 0) {
            return Duration.ofMillis(simple.getRepeatInterval());
        }
        Date at = next.getNextFireTime();
        Date after = next.getFireTimeAfter(at);
        return after == null ? null : Duration.ofMillis(after.getTime() - at.getTime());
    }

    /** The job's trigger that fires first, or null when none will fire or the scheduler cannot be read. */
    private Trigger next(JobKey key) {
        try {
            // the recovery pass's trigger is no fire time of the job
            List<Trigger> triggers = QuartzSchedules.scheduleTriggers(scheduler, key);
            Trigger first = null;
            for (Trigger trigger : triggers) {
                Date at = trigger.getNextFireTime();
                if (at != null && (first == null || at.before(first.getNextFireTime()))) {
                    first = trigger;
                }
            }
            return first;
        } catch (SchedulerException e) {
            // a scheduler shut down or whose store fails has no schedule to show: the gauges read NaN
            return null;
        }
    }

    /** Publishes the jobs scheduled after {@link #publish(Scheduler, ClusterSingletonListener, JobGuardMetrics)}. */
    private final class Scheduled extends SchedulerListenerSupport {
        @Override
        public void jobScheduled(Trigger trigger) {
            try {
                publish(trigger.getJobKey());
            } catch (SchedulerException | RuntimeException e) {
                // Quartz logs and swallows a listener's exception; this says which job has no gauges
                log.warn("job-guard: no schedule gauges for Quartz job {}: {}", trigger.getJobKey(), e.toString());
            }
        }
    }
}
