package io.jobguard.quartz;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.SchedulerListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;

/**
 * The recovery pass of the guarded Quartz jobs on this node, the mirror of the Spring background pass: it runs
 * {@link JobGuard#recoverMissedFireTimes} for each trigger of every job it {@linkplain #passesOver passes over} when
 * the scheduler starts (at install, if it runs already) or the job is scheduled, then again at least every
 * {@linkplain #PERIOD minute}, earlier when a fire time that was too young to judge becomes judgeable
 * ({@link JobGuard#recoveryPendingUntil}), and after 1, 2, 4 ... s (at most a minute) while the store cannot be
 * reached. So a fire time every node skipped (Redis unreachable at that moment, or a cluster-wide outage) runs, or is
 * reported {@code MISSED}, within about a minute, not at the job's next firing, which for a daily job is outside any
 * shorter catch-up window.
 *
 * <p>A pass is one firing of the job by a trigger of group {@value #GROUP}, marked {@value #MARKER}: job-guard vetoes
 * it and, on the Quartz worker it was given, recovers the job as a regular firing would (the job's own
 * {@code execute}, {@code RunContext.current()} naming the missed fire time). Each node has at most one such trigger
 * pending per job (its key names the job and the node), which every pass replaces with the next. The pass has no
 * thread of its own: a scheduler shut down or in standby fires no pass, and a deleted job's pass ends with it.
 */
final class QuartzRecoveryPass {

    /** Trigger JobDataMap entry of a pass firing: how long to wait, in seconds, if this pass cannot reach the store. */
    static final String MARKER = "jobguard.recoveryPass";
    /** The trigger group of the pass firings. */
    static final String GROUP = "jobguard-recovery";
    /** The longest pause between two passes over a job. */
    static final Duration PERIOD = Duration.ofMinutes(1);
    /** The shortest pause between two passes over a job, so that a fire time settled just now costs no busy loop. */
    static final Duration MIN_DELAY = Duration.ofMillis(200);
    /** The first wait after a pass that could not reach the store; it doubles up to {@link #PERIOD}. */
    static final Duration FIRST_STORE_RETRY = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(QuartzRecoveryPass.class);

    private final JobGuard guard;
    private final QuartzJobOptions guardedJobs;
    private final String nodeId;
    /** Makes "replace the job's pending pass, or add it if none" one step among this node's own reschedulings. */
    private final Object rescheduling = new Object();

    /**
     * @param guard       the engine that recovers
     * @param guardedJobs the guarded jobs' options
     * @param nodeId      this node, which names its pass triggers
     */
    QuartzRecoveryPass(JobGuard guard, QuartzJobOptions guardedJobs, String nodeId) {
        this.guard = guard;
        this.guardedJobs = guardedJobs;
        this.nodeId = nodeId;
    }

    /**
     * Whether the pass goes over the firings with these options: those with a recovery of lost fire times, and those
     * that retry a failed run. The one place that decides which jobs take part.
     *
     * @param job the options of a job's firings by one trigger
     * @return true if the pass recovers them or runs their due retries
     */
    static boolean passesOver(JobOptions job) {
        return job.recovery() != null || job.retry().retries();
    }

    /**
     * When the next pass over a job runs: a {@link #PERIOD} after {@code now}, or earlier at the first instant a pass
     * may find work ({@code pendingUntil}), or after {@code storeRetry} when the store did not answer; never sooner
     * than {@link #MIN_DELAY} after {@code now}.
     *
     * @param now          the end of this pass
     * @param pendingUntil for each of the job's triggers, when a fire time too young to judge now becomes judgeable
     * @param answered     whether every call of this pass reached the store
     * @param storeRetry   the wait after a pass that did not
     * @return the instant of the next pass
     */
    static Instant nextPass(Instant now, Collection<Instant> pendingUntil, boolean answered, Duration storeRetry) {
        Instant next = now.plus(PERIOD);
        for (Instant pending : pendingUntil) {
            next = pending.isBefore(next) ? pending : next;
        }
        if (!answered && now.plus(storeRetry).isBefore(next)) {
            next = now.plus(storeRetry);
        }
        Instant earliest = now.plus(MIN_DELAY);
        return next.isBefore(earliest) ? earliest : next;
    }

    /**
     * Whether a trigger fires the recovery pass rather than the job.
     *
     * @param trigger a trigger of the scheduler
     * @return true for a pass trigger
     */
    static boolean isPass(Trigger trigger) {
        return GROUP.equals(trigger.getKey().getGroup()) || trigger.getJobDataMap().containsKey(MARKER);
    }

    /**
     * Starts the passes: over every job when the scheduler starts (at once if it runs already), and over a job
     * scheduled later when it is scheduled.
     *
     * @param scheduler the node's scheduler
     * @throws SchedulerException if the scheduler refuses the listener
     */
    void install(Scheduler scheduler) throws SchedulerException {
        scheduler.getListenerManager().addSchedulerListener(new SchedulerListenerSupport() {
            @Override
            public void schedulerStarted() {
                passOverAllNow(scheduler);
            }

            @Override
            public void jobScheduled(Trigger trigger) {
                try {
                    if (!isPass(trigger) && scheduler.isStarted() && !scheduler.isShutdown()) {
                        passOverNow(scheduler, trigger.getJobKey());
                    }
                } catch (SchedulerException e) {
                    if (!ended(scheduler, trigger.getJobKey())) {
                        log.warn("job-guard: Quartz job {} on node {} is not recovered at its scheduling: {}",
                                trigger.getJobKey(), nodeId, e.toString());
                    }
                }
            }
        });
        if (scheduler.isStarted() && !scheduler.isInStandbyMode()) {
            passOverAllNow(scheduler);
        }
    }

    private void passOverAllNow(Scheduler scheduler) {
        try {
            for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
                passOverNow(scheduler, key);
            }
        } catch (SchedulerException e) {
            if (!shutDown(scheduler)) {
                log.warn("job-guard: Quartz jobs on node {} are not recovered at start: {}", nodeId, e.toString());
            }
        }
    }

    /**
     * After a firing of the job on this node threw: a pass now, in place of the pending one, so that this node learns
     * when the attempt its failure left pending is due and looks again then (other nodes find it at their next pass).
     *
     * @param scheduler the node's scheduler
     * @param key       the job that threw
     */
    void afterFailure(Scheduler scheduler, JobKey key) {
        try {
            if (!ended(scheduler, key)) {
                passOverNow(scheduler, key);
            }
        } catch (SchedulerException e) {
            log.warn("job-guard: Quartz job {} on node {}: no recovery pass after its failure: {}", key, nodeId,
                    e.toString());
        }
    }

    /** Runs a pass over the job now, in place of its pending one, if the job takes part. */
    private void passOverNow(Scheduler scheduler, JobKey key) throws SchedulerException {
        JobDetail detail = scheduler.getJobDetail(key);
        if (detail != null && takesPart(scheduler, detail)) {
            schedulePass(scheduler, key, Duration.ZERO, FIRST_STORE_RETRY);
        }
    }

    private boolean takesPart(Scheduler scheduler, JobDetail detail) throws SchedulerException {
        try {
            if (guardedJobs.resolve(detail) == null) {
                return false;
            }
            for (Trigger trigger : scheduler.getTriggersOfJob(detail.getKey())) {
                if (!isPass(trigger) && passesOver(firing(detail, trigger))) {
                    return true;
                }
            }
        } catch (IllegalArgumentException e) {
            // invalid job-guard entries: its regular firings are vetoed and report it
            log.warn("job-guard: Quartz job {} is not recovered by the pass: {}", detail.getKey(), e.getMessage());
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
     * Runs the pass of a pass firing, on its worker, schedules the job's next pass, and says whether to veto the
     * firing (always, for a pass: it is no fire time of the job).
     *
     * @param trigger the trigger that fired
     * @param context the firing
     * @return null when the firing is not a pass, else {@code true}
     */
    Boolean veto(Trigger trigger, JobExecutionContext context) {
        if (!isPass(trigger)) {
            return null;
        }
        Scheduler scheduler = context.getScheduler();
        JobKey key = context.getJobDetail().getKey();
        try {
            if (ended(scheduler, key)) {
                return Boolean.TRUE;
            }
            Pass pass = passOver(scheduler, context);
            if (pass.tookPart() && !ended(scheduler, key)) {
                Duration storeRetry = storeRetry(trigger);
                Instant now = guard.config().clock().instant();
                Instant next = nextPass(now, pass.pendingUntil(), pass.answered(), storeRetry);
                // a pass that reached the store starts the back-off afresh; one that did not doubles it
                Duration doubled = storeRetry.multipliedBy(2);
                Duration nextStoreRetry = pass.answered() ? FIRST_STORE_RETRY
                        : doubled.compareTo(PERIOD) > 0 ? PERIOD : doubled;
                schedulePass(scheduler, key, Duration.between(now, next), nextStoreRetry);
                log.debug("job-guard: Quartz job {} on node {}: next recovery pass at {}", key, nodeId, next);
            }
        } catch (SchedulerException | RuntimeException e) {
            if (!ended(scheduler, key)) {
                log.warn("job-guard: Quartz job {} on node {}: recovery pass failed: {}", key, nodeId, e.toString());
            }
        }
        return Boolean.TRUE;
    }

    /** What one pass over a job found. */
    private record Pass(boolean tookPart, boolean answered, List<Instant> pendingUntil) {
    }

    private Pass passOver(Scheduler scheduler, JobExecutionContext context) throws SchedulerException {
        JobDetail detail = context.getJobDetail();
        if (guardedJobs.resolve(detail) == null) {
            return new Pass(false, true, List.of());
        }
        Runnable body = QuartzRecovery.body(context);
        boolean tookPart = false;
        boolean answered = true;
        List<Instant> pendingUntil = new ArrayList<>();
        for (Trigger own : scheduler.getTriggersOfJob(detail.getKey())) {
            JobOptions job = isPass(own) ? null : firing(detail, own);
            if (job == null || !passesOver(job)) {
                continue;
            }
            tookPart = true;
            try {
                // what the pass does for a job it passes over: recover its lost fire times, run its due retry
                if (job.recovery() != null) {
                    answered &= guard.recoverMissedFireTimes(job, job.recovery(), body);
                    guard.recoveryPendingUntil(job, job.recovery()).ifPresent(pendingUntil::add);
                }
                // a due attempt of the job: one its retry policy left, or one an operator asked for by hand
                answered &= guard.runDueRetry(job, body);
                guard.retryDueAt(job).ifPresent(pendingUntil::add);
            } catch (RuntimeException e) {
                // this trigger's recovery failed; the job's other triggers, and its next pass, still run
                log.warn("job-guard: Quartz job {} trigger {} on node {}: recovery of missed fire times failed: {}",
                        detail.getKey(), own.getKey(), nodeId, e.toString());
            }
        }
        return new Pass(tookPart, answered, pendingUntil);
    }

    /**
     * Makes the job's one pending pass of this node fire after {@code delay}: it replaces the pending one (or the
     * one firing now, which Quartz then keeps rather than deletes), or is added when there is none.
     */
    private void schedulePass(Scheduler scheduler, JobKey job, Duration delay, Duration storeRetry)
            throws SchedulerException {
        Trigger pass = TriggerBuilder.newTrigger().withIdentity(passKey(job)).forJob(job)
                .usingJobData(MARKER, Long.toString(storeRetry.toSeconds()))
                .startAt(new Date(System.currentTimeMillis() + Math.max(0, delay.toMillis())))
                // a pass found late (workers busy, standby) runs as soon as it can
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
        synchronized (rescheduling) {
            if (scheduler.rescheduleJob(pass.getKey(), pass) == null) {
                scheduler.scheduleJob(pass);
            }
        }
    }

    /** The key of the job's pass trigger on this node: the same for every pass, so a new one replaces the last. */
    private TriggerKey passKey(JobKey job) {
        return TriggerKey.triggerKey(job.getGroup() + "." + job.getName() + "@" + nodeId, GROUP);
    }

    /** The wait if this pass cannot reach the store, as its trigger carries it (1 s when absent or unreadable). */
    private static Duration storeRetry(Trigger pass) {
        try {
            long seconds = Long.parseLong(String.valueOf(pass.getJobDataMap().get(MARKER)));
            return Duration.ofSeconds(Math.min(PERIOD.toSeconds(), Math.max(FIRST_STORE_RETRY.toSeconds(), seconds)));
        } catch (NumberFormatException e) {
            return FIRST_STORE_RETRY;
        }
    }

    /**
     * Whether the job's passes have ended without an error: the scheduler is shut down (or cannot tell) or the job
     * was deleted.
     */
    private static boolean ended(Scheduler scheduler, JobKey job) {
        try {
            return shutDown(scheduler) || !scheduler.checkExists(job);
        } catch (SchedulerException e) {
            return true;
        }
    }

    private static boolean shutDown(Scheduler scheduler) {
        try {
            return scheduler.isShutdown();
        } catch (SchedulerException e) {
            return true;
        }
    }
}
