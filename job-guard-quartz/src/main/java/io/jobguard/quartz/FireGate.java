package io.jobguard.quartz;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.JobPermit;
import io.jobguard.MissedFireTimes;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import org.quartz.JobExecutionContext;
import org.quartz.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The decision a {@link ClusterSingletonListener} takes for one Quartz firing: whether it runs on
 * this node. A guarded firing runs only when the engine admits its nominal fire time (through the
 * missed-fire-time recovery when the job or its trigger asks for one); the permit is then held by
 * fire instance and published to the job through its context entries. Never throws: Quartz drops a
 * firing whose listener throws, so any error vetoes a firing that asked to be guarded, never one
 * that did not, and is counted.
 */
final class FireGate {

    private static final Logger log = LoggerFactory.getLogger(FireGate.class);

    private final JobGuard jobGuard;
    private final GuardedJobs guardedJobs;
    private final FirePermits permits;
    private final AtomicLong listenerErrors;
    private final NominalFireTimes fireTimes = new NominalFireTimes();
    private final MissedFireTimes missed;

    FireGate(JobGuard jobGuard, GuardedJobs guardedJobs, FirePermits permits, AtomicLong listenerErrors) {
        this.jobGuard = jobGuard;
        this.guardedJobs = guardedJobs;
        this.permits = permits;
        this.listenerErrors = listenerErrors;
        this.missed = new MissedFireTimes(jobGuard);
    }

    /** Whether to veto this firing; see {@link ClusterSingletonListener#vetoJobExecution}. */
    boolean veto(Trigger trigger, JobExecutionContext context) {
        JobOptions options = null;
        Instant fireTime = null;
        try {
            String fireId = context.getFireInstanceId();
            permits.releaseStale(fireId);
            if (permits.holds(fireId)) {
                log.debug("job-guard: Quartz job {} re-executes fire instance {} under its lease",
                        context.getJobDetail().getKey(), fireId);
                return false;
            }
            options = guardedJobs.resolve(context.getJobDetail());
            if (options == null) {
                return false;
            }
            Date scheduled = context.getScheduledFireTime() != null ? context.getScheduledFireTime()
                    : context.getFireTime();
            fireTime = fireTimes.nominal(trigger, scheduled);
            RecoveryOptions recovery = QuartzRecovery.resolve(context.getMergedJobDataMap(), trigger, options.name());
            Admission admission = recovery == null ? jobGuard.admit(options, fireTime)
                    : missed.admit(options, recovery, fireTime, QuartzRecovery.body(context));
            if (!admission.granted()) {
                log.debug("job-guard: Quartz job '{}' T={} node={} vetoed: {}", options.name(), fireTime,
                        jobGuard.config().nodeId(), admission.refusal());
                return true;
            }
            JobPermit permit = admission.permit();
            permits.hold(fireId, permit);
            RunContext run = permit.context();
            context.put(ClusterSingletonListener.RUN_CONTEXT_KEY, run);
            context.put(ClusterSingletonListener.FENCING_TOKEN_KEY, run.fencingToken());
            context.put(ClusterSingletonListener.FIRE_TIME_KEY, run.nominalFireTime());
            return false;
        } catch (Throwable e) {
            listenerErrors.incrementAndGet();
            // fail closed for a job that asked for guarding, never block one that did not
            boolean veto = options != null || guardedJobs.probablyGuarded(context.getJobDetail());
            log.error("job-guard: Quartz job {} T={} node={} could not be guarded; firing {}",
                    context.getJobDetail().getKey(), fireTime, jobGuard.config().nodeId(),
                    veto ? "vetoed" : "not vetoed", e);
            permits.release(context.getFireInstanceId(), e);
            return veto;
        }
    }
}
