package io.jobguard.quartz;

import io.jobguard.JobOptions;
import io.jobguard.JobGuard;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.SchedulerListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Date;

/**
 * Catch-up at node start for Quartz jobs (so lost fire times are not left until the next firing), the mirror of the Spring background
 * recovery pass: when the scheduler starts (at install, if it runs already), every guarded job gets
 * one extra firing marked {@value #MARKER}; job-guard vetoes that firing itself and, on the Quartz
 * worker it was given, asks {@link JobGuard#recoverMissedFireTimes} for each of the job's triggers that has a
 * misfire policy or a delivery (set, or the accounting rule by default). So a fire time that
 * fell into a cluster-wide outage runs (or is reported {@code MISSED}) when the first node comes back, not at
 * the job's next firing, which for a daily job is outside any shorter window; a catch-up runs exactly as one found at a regular firing
 * does (the job's own {@code execute}, {@code RunContext.current()} naming the missed fire time).
 * While the store cannot be reached the marker is fired again after 1, 2, 4 ... s (at most a
 * minute). A job scheduled after the start gets its marker when it is scheduled.
 */
final class QuartzStartupRecovery {

    /** Trigger JobDataMap entry of a start-recovery firing: the delay before a retry, in seconds. */
    static final String MARKER = "jobguard.startupRecovery";

    private static final Logger log = LoggerFactory.getLogger(QuartzStartupRecovery.class);
    private static final long MAX_BACKOFF_SECONDS = 60;

    private final JobGuard guard;
    private final QuartzJobOptions guardedJobs;
    private final String nodeId;

    /**
     * @param guard   the engine that recovers
     * @param guardedJobs the guarded jobs' options
     * @param nodeId  this node, for the logs
     */
    QuartzStartupRecovery(JobGuard guard, QuartzJobOptions guardedJobs, String nodeId) {
        this.guard = guard;
        this.guardedJobs = guardedJobs;
        this.nodeId = nodeId;
    }

    /**
     * Fires the marker of every job when the scheduler starts (at once if it runs already), and of a job
     * scheduled later when it is scheduled.
     *
     * @param scheduler the node's scheduler
     * @throws SchedulerException if the scheduler refuses the listener
     */
    void install(Scheduler scheduler) throws SchedulerException {
        scheduler.getListenerManager().addSchedulerListener(new SchedulerListenerSupport() {
            @Override
            public void schedulerStarted() {
                markAll(scheduler);
            }

            @Override
            public void jobScheduled(Trigger trigger) {
                try {
                    if (!trigger.getJobDataMap().containsKey(MARKER) && scheduler.isStarted()) {
                        mark(scheduler, trigger.getJobKey(), 1);
                    }
                } catch (SchedulerException e) {
                    log.warn("job-guard: Quartz job {} on node {} is not recovered at its scheduling: {}",
                            trigger.getJobKey(), nodeId, e.toString());
                }
            }
        });
        if (scheduler.isStarted() && !scheduler.isInStandbyMode()) {
            markAll(scheduler);
        }
    }

    private void markAll(Scheduler scheduler) {
        try {
            for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
                mark(scheduler, key, 1);
            }
        } catch (SchedulerException e) {
            log.warn("job-guard: Quartz jobs on node {} are not recovered at start: {}", nodeId, e.toString());
        }
    }

    /** Fires the job's marker in {@code delaySeconds} (now for the first), if the job is guarded and recovers. */
    private void mark(Scheduler scheduler, JobKey key, long delaySeconds) throws SchedulerException {
        JobDetail detail = scheduler.getJobDetail(key);
        if (detail == null || !recovers(scheduler, detail)) {
            return;
        }
        Trigger marker = TriggerBuilder.newTrigger().forJob(key).usingJobData(MARKER, Long.toString(delaySeconds))
                .startAt(delaySeconds <= 1 ? new Date() : Date.from(new Date().toInstant().plusSeconds(delaySeconds)))
                .build();
        scheduler.scheduleJob(marker);
    }

    private boolean recovers(Scheduler scheduler, JobDetail detail) throws SchedulerException {
        try {
            if (guardedJobs.resolve(detail) == null) {
                return false;
            }
            for (Trigger trigger : scheduler.getTriggersOfJob(detail.getKey())) {
                if (!trigger.getJobDataMap().containsKey(MARKER) && firing(detail, trigger).recovery() != null) {
                    return true;
                }
            }
        } catch (IllegalArgumentException e) {
            // invalid job-guard entries: its regular firings are vetoed and report it
            log.warn("job-guard: Quartz job {} is not recovered at start: {}", detail.getKey(), e.getMessage());
        }
        return false;
    }

    /** The options of the job's firings by this trigger, with their recovery (the trigger's entries win). */
    private JobOptions firing(JobDetail detail, Trigger trigger) {
        JobDataMap merged = new JobDataMap(detail.getJobDataMap());
        merged.putAll(trigger.getJobDataMap());
        return guardedJobs.firingOptions(detail, trigger, merged);
    }

    /**
     * Runs the recovery for a marker firing, on its worker, and says whether to veto the firing (always,
     * for a marker: it is no fire time of the job).
     *
     * @param trigger the trigger that fired
     * @param context the firing
     * @return null when the firing is not a marker, else {@code true}
     */
    Boolean veto(Trigger trigger, JobExecutionContext context) {
        Object marker = trigger.getJobDataMap().get(MARKER);
        if (marker == null) {
            return null;
        }
        Scheduler scheduler = context.getScheduler();
        JobDetail detail = context.getJobDetail();
        try {
            boolean guarded = guardedJobs.resolve(detail) != null;
            boolean answered = true;
            for (Trigger own : guarded ? scheduler.getTriggersOfJob(detail.getKey()) : java.util.List.<Trigger>of()) {
                JobOptions job = own.getJobDataMap().containsKey(MARKER) ? null : firing(detail, own);
                if (job != null && job.recovery() != null) {
                    answered &= guard.recoverMissedFireTimes(job, job.recovery(), QuartzRecovery.body(context));
                }
            }
            if (!answered) {
                long next = Math.min(MAX_BACKOFF_SECONDS, Math.max(1, Long.parseLong(marker.toString())) * 2);
                mark(scheduler, detail.getKey(), next);
            }
        } catch (SchedulerException | RuntimeException e) {
            log.warn("job-guard: Quartz job {} on node {}: recovery of missed fire times failed: {}", detail.getKey(),
                    nodeId, e.toString());
        }
        return Boolean.TRUE;
    }
}
