package io.jobguard.quartz;

import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunContext;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.JobListener;
import org.quartz.ListenerManager;
import org.quartz.Matcher;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.TriggerListener;
import org.quartz.impl.matchers.EverythingMatcher;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;

/**
 * Makes a Quartz scheduler cluster-safe without a JDBC job store: every nominal fire time of a
 * guarded job runs on at most one node sharing the {@link JobGuard}'s store. Runs of a guarded
 * job never overlap across the cluster either. Each node keeps its own (for example {@code RAMJobStore})
 * scheduler with the same jobs and triggers; install this listener on each:
 * <pre>{@code
 * ClusterSingletonListener.install(scheduler, jobGuard);                                     // opted-in jobs
 * ClusterSingletonListener.install(scheduler, jobGuard, GroupMatcher.jobGroupEquals("reports")); // + a group
 * }</pre>
 *
 * <p><b>Which jobs are guarded.</b> A job is guarded when its {@code JobDataMap} has
 * {@value #ENABLED}{@code =true}; or, unless that entry is {@code false}, when its class carries
 * {@link io.jobguard.ClusterSingleton @ClusterSingleton} or its key matches the matcher given at
 * install time. Options come from the {@code JobDataMap} entries {@value #NAME}, {@value #TYPE}
 * ({@code RETURN}/{@code WAIT}), {@value #LEASE}, {@value #WAIT_FOR}, {@value #BUSY_GRACE} (duration
 * strings such as {@code "30s"}, or {@link Duration}s), {@value #KEEP_ALIVE}, {@value #MISFIRE_POLICY},
 * {@value #DELIVERY}, {@value #CATCH_UP_WINDOW} and {@value #CATCH_UP_MAX}, then from every attribute of
 * the annotation, then from the install-time defaults (and the trigger's misfire instruction): the same
 * resolution, with the same checks and messages, as for Spring's {@code @Scheduled} methods. The job name defaults to the {@code JobKey} as {@code group.name}.
 *
 * <p><b>How.</b> {@link #vetoJobExecution} (the only hook that can stop a firing) starts one
 * {@link JobGuard#fire firing} of the engine for the firing's nominal fire time, Quartz's
 * {@code getScheduledFireTime()}, with the job's recovery of lost fire times in its options, and vetoes
 * unless the engine admitted it. The started firing is kept per {@code getFireInstanceId()}, so a
 * re-execution ({@link JobExecutionException#refireImmediately()}) runs again under the same lease
 * instead of being refused as already run; {@link #jobWasExecuted} ends it (outcome FAILED when the job
 * threw) and {@link #jobExecutionVetoed} ends it when another listener vetoed the firing. While it runs,
 * the job reads its lease through {@link RunContext#current()}, {@link #runContext(JobExecutionContext)}
 * or the context entries {@value #FENCING_TOKEN_KEY} ({@code Long}) and {@value #FIRE_TIME_KEY}
 * ({@link Instant}).
 *
 * <p><b>Never throws.</b> Quartz silently drops a firing whose listener throws, so every callback
 * catches everything: a store failure becomes the configured
 * {@link io.jobguard.StoreFailurePolicy} (skip by default; counted as STORE_ERROR by the
 * {@link io.jobguard.JobGuardListener}s), any other error vetoes a guarded firing, is logged and
 * counted in {@link #listenerErrors()}.
 *
 * <p><b>WAIT blocks a Quartz worker thread</b> for up to the job's wait-for while the previous run
 * holds the lease. Size {@code org.quartz.threadPool.threadCount} for the WAIT jobs that may wait
 * at once plus the jobs that must keep firing meanwhile, and keep wait-for below the trigger's
 * period unless late delivery of every firing is wanted; {@code Scheduler.shutdown(true)} also waits
 * for firings that are waiting.
 *
 * <p><b>Misfires.</b> A cron trigger's misfire handled with FIRE_ONCE_NOW (the "smart" policy)
 * fires at the node's "now"; that time is snapped back to the latest fire time of the cron schedule
 * at or before it, so a late node competes for the same fire time as the others. Other triggers
 * are not snapped: give them the same explicit start time on every node and a misfire instruction
 * that keeps them on schedule ({@code withMisfireHandlingInstructionNextWithRemainingCount()} or
 * {@code ...NextWithExistingCount()} for simple triggers, {@code ...DoNothing()} for the others).
 *
 * <p><b>Recovery pass.</b> Fire times that no node ran (every node down, or the store unreachable at that moment)
 * are caught up or reported when the scheduler starts and then at least every minute, not only at the job's next
 * firing: each guarded job with a recovery of lost fire times has one extra trigger per node, in group
 * {@code jobguard-recovery}, whose firings job-guard vetoes itself after recovering the job on that Quartz worker.
 * Other listeners see them as vetoed firings; {@link QuartzSchedules} leaves them out of the job's schedule.
 *
 * <p><b>Other listeners.</b> Quartz asks every trigger listener, in registration order, even after
 * one has vetoed, and job-guard cannot see the other votes: a firing that job-guard admitted and
 * another listener vetoed still counts as taken for its fire time (its lease is released at once,
 * but no other node runs that fire time).
 */
public final class ClusterSingletonListener implements TriggerListener, JobListener {

    /** The listener name used unless the builder sets another; one per scheduler. */
    public static final String DEFAULT_NAME = "jobguard-cluster-singleton";
    /** JobDataMap entry: {@code true} guards the job, {@code false} never guards it. */
    public static final String ENABLED = "jobguard.enabled";
    /** JobDataMap entry: the cluster-wide job name (default {@code group.name} of the JobKey). */
    public static final String NAME = "jobguard.name";
    /** JobDataMap entry: {@code RETURN} or {@code WAIT}. */
    public static final String TYPE = "jobguard.type";
    /** JobDataMap entry: the run lease, for example {@code "30s"}. */
    public static final String LEASE = "jobguard.lease";
    /** JobDataMap entry: how long a WAIT firing waits for the lease. */
    public static final String WAIT_FOR = "jobguard.waitFor";
    /** JobDataMap entry: how long a RETURN firing waits for a busy run lease (default 1 s, capped at the lease). */
    public static final String BUSY_GRACE = "jobguard.busyGrace";
    /** JobDataMap entry: whether the lease is renewed while the job runs (default {@code true}). */
    public static final String KEEP_ALIVE = "jobguard.keepAlive";
    /** JobDataMap entry: {@code SKIP}, {@code RUN_LATEST} or {@code RUN_ALL} (default: from the trigger's misfire instruction). */
    public static final String MISFIRE_POLICY = "jobguard.misfirePolicy";
    /** JobDataMap entry: {@code AT_MOST_ONCE} or {@code AT_LEAST_ONCE}. */
    public static final String DELIVERY = "jobguard.delivery";
    /** JobDataMap entry: how old a missed fire time may be and still be run or reported (default 1h). */
    public static final String CATCH_UP_WINDOW = "jobguard.catchUpWindow";
    /** JobDataMap entry: the most missed fire times RUN_ALL runs at once (default 10). */
    public static final String CATCH_UP_MAX = "jobguard.catchUpMax";
    /** JobExecutionContext entry holding the run's fencing token ({@code Long}). */
    public static final String FENCING_TOKEN_KEY = "jobguard.fencingToken";
    /** JobExecutionContext entry holding the run's nominal fire time ({@link Instant}). */
    public static final String FIRE_TIME_KEY = "jobguard.nominalFireTime";
    /** JobExecutionContext entry holding the run's {@link RunContext}. */
    public static final String RUN_CONTEXT_KEY = "jobguard.runContext";

    private static final Logger log = LoggerFactory.getLogger(ClusterSingletonListener.class);

    private final String name;
    /** The firings' decision, which also holds the parts the other callbacks use. */
    private final QuartzAdmission admission;

    private ClusterSingletonListener(Builder builder) {
        this.name = builder.name;
        this.admission = QuartzAdmission.create(builder.jobGuard,
                new QuartzJobOptions(builder.guard, builder.type, builder.lease, builder.waitFor,
                        builder.jobGuard.config()));
    }

    /**
     * Installs a listener that guards the jobs opted in by {@code @ClusterSingleton} or
     * {@value #ENABLED}; see the class documentation.
     *
     * @param scheduler the node's scheduler
     * @param jobGuard  the node's engine
     * @return the installed listener
     * @throws IllegalArgumentException if a job already scheduled has invalid guard options (named)
     * @throws IllegalStateException    if the scheduler rejects the listener
     */
    public static ClusterSingletonListener install(Scheduler scheduler, JobGuard jobGuard) {
        return builder(jobGuard).install(scheduler);
    }

    /**
     * Installs a listener that also guards, with the default options, every job matched by
     * {@code guard} (for example {@link EverythingMatcher#allJobs()} or
     * {@link GroupMatcher#jobGroupEquals(String)}).
     *
     * @param scheduler the node's scheduler
     * @param jobGuard  the node's engine
     * @param guard     the jobs guarded even without annotation or JobDataMap entry
     * @return the installed listener
     * @throws IllegalArgumentException if a job already scheduled has invalid guard options (named)
     * @throws IllegalStateException    if the scheduler rejects the listener
     */
    public static ClusterSingletonListener install(Scheduler scheduler, JobGuard jobGuard, Matcher<JobKey> guard) {
        return builder(jobGuard).guard(guard).install(scheduler);
    }

    /**
     * Starts a listener with non-default options.
     *
     * @param jobGuard the node's engine
     * @return a builder
     * @throws NullPointerException if {@code jobGuard} is null
     */
    public static Builder builder(JobGuard jobGuard) {
        return new Builder(Objects.requireNonNull(jobGuard, "jobGuard"));
    }

    /**
     * The lease context of a running guarded job, from inside {@code Job.execute}.
     *
     * @param context the job's execution context
     * @return the context, or empty when the firing is not guarded
     */
    public static Optional<RunContext> runContext(JobExecutionContext context) {
        Object value = context.get(RUN_CONTEXT_KEY);
        return value instanceof RunContext run ? Optional.of(run) : Optional.empty();
    }

    /**
     * The guarded jobs this listener has resolved (at install and at firings), by Quartz job key.
     *
     * @return job key ({@code group.name}) to options
     */
    public Map<String, JobOptions> guardedJobs() {
        return admission.guardedJobs().seen();
    }

    /**
     * The options this listener guards a job with, whether or not it has fired yet.
     *
     * @param detail the job
     * @return the options, or empty when the job is not guarded or its job-guard entries are invalid
     *         (an invalid job is reported, and its firing vetoed, when it fires)
     */
    public Optional<JobOptions> optionsOf(JobDetail detail) {
        try {
            return Optional.ofNullable(admission.guardedJobs().resolve(detail));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * How many callbacks failed for reasons other than the store (invalid options added after
     * install, bugs); each was logged and, for a guarded firing, vetoed.
     *
     * @return the count since install
     */
    public long listenerErrors() {
        return admission.listenerErrors().get();
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public void triggerFired(Trigger trigger, JobExecutionContext context) {
        // the decision is taken in vetoJobExecution, which Quartz calls right after
    }

    @Override
    public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
        return admission.veto(trigger, context);
    }

    @Override
    public void triggerMisfired(Trigger trigger) {
        log.debug("job-guard: trigger {} misfired on node {}", trigger.getKey(), nodeId());
    }

    @Override
    public void triggerComplete(Trigger trigger, JobExecutionContext context,
                                CompletedExecutionInstruction instruction) {
        if (instruction != CompletedExecutionInstruction.RE_EXECUTE_JOB) {
            // normally jobWasExecuted released it already; this covers a JobListener chain Quartz cut short
            admission.permits().release(context.getFireInstanceId(), null);
        }
    }

    @Override
    public void jobToBeExecuted(JobExecutionContext context) {
        // nothing to do: the permit was taken in vetoJobExecution
    }

    @Override
    public void jobExecutionVetoed(JobExecutionContext context) {
        admission.permits().release(context.getFireInstanceId(),
                new CancellationException("firing vetoed by another Quartz trigger listener"));
    }

    @Override
    public void jobWasExecuted(JobExecutionContext context, JobExecutionException jobException) {
        FirePermits permits = admission.permits();
        try {
            if (jobException != null && jobException.refireImmediately()
                    && permits.holds(context.getFireInstanceId())) {
                // Quartz runs the same fire instance again right away; keep the lease for it
                return;
            }
            permits.release(context.getFireInstanceId(), jobException);
            if (jobException != null) {
                // a job that retries left its next attempt pending: this node looks for it when it is due
                admission.recoveryPass().afterFailure(context.getScheduler(), context.getJobDetail().getKey());
            }
        } catch (Throwable e) {
            admission.listenerErrors().incrementAndGet();
            log.error("job-guard: Quartz job {} node={}: jobWasExecuted failed", context.getJobDetail().getKey(),
                    nodeId(), e);
        }
    }

    @Override
    public String toString() {
        return "ClusterSingletonListener[" + name + ", node=" + nodeId() + "]";
    }

    private String nodeId() {
        return admission.jobGuard().config().nodeId();
    }

    private void register(Scheduler scheduler) {
        try {
            ListenerManager listeners = scheduler.getListenerManager();
            if (listeners.getTriggerListener(name) != null || listeners.getJobListener(name) != null) {
                throw new IllegalStateException("scheduler " + scheduler.getSchedulerName()
                        + " already has a listener named '" + name + "'");
            }
            admission.guardedJobs().resolveAll(scheduler);
            listeners.addJobListener(this, EverythingMatcher.allJobs());
            listeners.addTriggerListener(this, EverythingMatcher.allTriggers());
            // fire times lost while no node ran, or skipped by every node, are caught up at start and by the
            // periodic pass, not at the next firing
            admission.recoveryPass().install(scheduler);
            log.info("job-guard: guarding Quartz scheduler {} on node {} ({} guarded jobs so far)",
                    scheduler.getSchedulerName(), nodeId(), admission.guardedJobs().seen().size());
        } catch (SchedulerException e) {
            throw new IllegalStateException("cannot install job-guard on a Quartz scheduler: " + e.getMessage(), e);
        }
    }

    /** Builds and installs a {@link ClusterSingletonListener}; every setting is optional. */
    public static final class Builder {
        private final JobGuard jobGuard;
        private String name = DEFAULT_NAME;
        private Matcher<JobKey> guard;
        private GuardType type = GuardType.RETURN;
        private Duration lease;
        private Duration waitFor;

        private Builder(JobGuard jobGuard) {
            this.jobGuard = jobGuard;
        }

        /**
         * Sets the listener name (unique per scheduler).
         *
         * @param name the name, default {@value ClusterSingletonListener#DEFAULT_NAME}
         * @return this builder
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * Guards every job matched, with the default options, even without annotation or JobDataMap entry.
         *
         * @param guard the matcher, or null for opted-in jobs only
         * @return this builder
         */
        public Builder guard(Matcher<JobKey> guard) {
            this.guard = guard;
            return this;
        }

        /**
         * Sets the guard type of jobs that do not set one.
         *
         * @param type RETURN (default) or WAIT
         * @return this builder
         */
        public Builder defaultType(GuardType type) {
            this.type = type;
            return this;
        }

        /**
         * Sets the lease of jobs that do not set one.
         *
         * @param lease the lease, default the engine's {@code defaultLease}
         * @return this builder
         */
        public Builder defaultLease(Duration lease) {
            this.lease = lease;
            return this;
        }

        /**
         * Sets how long WAIT jobs that do not set it wait.
         *
         * @param waitFor the bound, default the job's lease
         * @return this builder
         */
        public Builder defaultWaitFor(Duration waitFor) {
            this.waitFor = waitFor;
            return this;
        }

        /**
         * Builds the listener and registers it on the scheduler for all jobs and triggers, after
         * checking the guard options of the jobs already scheduled.
         *
         * @param scheduler the node's scheduler
         * @return the installed listener
         * @throws IllegalArgumentException if a setting or a scheduled job's guard options are invalid (named)
         * @throws IllegalStateException    if the scheduler rejects the listener or has one of that name
         */
        public ClusterSingletonListener install(Scheduler scheduler) {
            Objects.requireNonNull(scheduler, "scheduler");
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("job-guard Quartz listener name must not be blank");
            }
            if (type == null) {
                throw new IllegalArgumentException("default guard type of the job-guard Quartz listener is null");
            }
            if (lease != null) {
                // validates the defaults once, naming them, instead of at the first firing
                JobOptions.builder("defaults of job-guard Quartz listener", lease).waitFor(waitFor).build();
            }
            ClusterSingletonListener listener = new ClusterSingletonListener(this);
            listener.register(scheduler);
            return listener;
        }
    }
}
