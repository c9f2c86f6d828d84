package io.jobguard.quartz;

import io.jobguard.Fired;
import io.jobguard.FiringBody;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunContext;
import org.quartz.JobExecutionContext;
import org.quartz.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The decision of {@link ClusterSingletonListener#vetoJobExecution}: a recovery pass firing runs the pass
 * and is vetoed ({@link QuartzRecoveryPass}); a re-execution of a fire instance that
 * holds its permit runs; a guarded firing is one {@link JobGuard#fire} of its nominal fire time, with the
 * job's recovery (its misfire policy and delivery) in its options: it runs only when the engine admits
 * the fire time, and the started firing is kept by fire instance until the job ends; an error vetoes a guarded firing (fail closed) and never blocks an unguarded one. Never throws: Quartz
 * silently drops a firing whose listener throws. Holds the parts of a {@link ClusterSingletonListener}; its other
 * callbacks use them from here.
 *
 * @param jobGuard        the node's engine
 * @param guardedJobs     the options of the guarded jobs
 * @param snap            the nominal fire time of each firing (a misfired cron firing snapped onto its schedule)
 * @param permits         the running firings, by fire instance
 * @param recoveryPass    the periodic recovery of lost fire times, with its pass firings
 * @param listenerErrors  how many callbacks failed for reasons other than the store
 */
record QuartzAdmission(JobGuard jobGuard, QuartzJobOptions guardedJobs, CronFireTimeSnap snap, FirePermits permits,
                       QuartzRecoveryPass recoveryPass, AtomicLong listenerErrors) {

    private static final Logger log = LoggerFactory.getLogger(QuartzAdmission.class);

    /**
     * The admission of a listener that guards {@code guardedJobs} on {@code jobGuard}, with new parts.
     *
     * @param jobGuard    the node's engine
     * @param guardedJobs the options of the guarded jobs
     * @return the admission
     */
    static QuartzAdmission create(JobGuard jobGuard, QuartzJobOptions guardedJobs) {
        String nodeId = jobGuard.config().nodeId();
        AtomicLong listenerErrors = new AtomicLong();
        return new QuartzAdmission(jobGuard, guardedJobs, new CronFireTimeSnap(), new FirePermits(nodeId, listenerErrors),
                new QuartzRecoveryPass(jobGuard, guardedJobs, nodeId), listenerErrors);
    }

    boolean veto(Trigger trigger, JobExecutionContext context) {
        JobOptions options = null;
        Instant nominalFireTime = null;
        try {
            Boolean pass = recoveryPass.veto(trigger, context);
            if (pass != null) {
                return pass;
            }
            String fireId = context.getFireInstanceId();
            permits.releaseStale(fireId);
            if (permits.holds(fireId)) {
                log.debug("job-guard: Quartz job {} re-executes fire instance {} under its lease",
                        context.getJobDetail().getKey(), fireId);
                return false;
            }
            options = guardedJobs.firingOptions(context.getJobDetail(), trigger, context.getMergedJobDataMap());
            if (options == null) {
                return false;
            }
            Date scheduled = context.getScheduledFireTime() != null ? context.getScheduledFireTime()
                    : context.getFireTime();
            nominalFireTime = snap.nominalFireTime(trigger, scheduled);
            JobOptions firing = options;
            // the job runs after this veto returns, on this worker: the firing ends in jobWasExecuted
            Fired<Void> fired = jobGuard.fire(firing, nominalFireTime, FiringBody.ofCallback(end -> {
                permits.hold(fireId, end);
                RunContext run = end.context();
                context.put(ClusterSingletonListener.RUN_CONTEXT_KEY, run);
                context.put(ClusterSingletonListener.FENCING_TOKEN_KEY, run.fencingToken());
                context.put(ClusterSingletonListener.FIRE_TIME_KEY, run.nominalFireTime());
                return null;
            }, QuartzRecovery.body(context)));
            if (!fired.started()) {
                log.debug("job-guard: Quartz job '{}' T={} node={} vetoed: {}", options.name(), nominalFireTime,
                        jobGuard.config().nodeId(), fired.refusal());
                return true;
            }
            return false;
        } catch (Throwable e) {
            listenerErrors.incrementAndGet();
            // fail closed for a job that asked for guarding, never block one that did not
            boolean veto = options != null || guardedJobs.probablyGuarded(context.getJobDetail());
            log.error("job-guard: Quartz job {} T={} node={} could not be guarded; firing {}",
                    context.getJobDetail().getKey(), nominalFireTime, jobGuard.config().nodeId(),
                    veto ? "vetoed" : "not vetoed", e);
            permits.release(context.getFireInstanceId(), e);
            return veto;
        }
    }
}
