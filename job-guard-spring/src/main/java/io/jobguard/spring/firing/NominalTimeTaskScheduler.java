package io.jobguard.spring.firing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.ScheduledMethodRunnable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link TaskScheduler} decorator that gives every firing of a guarded {@code @Scheduled} method
 * its own nominal fire time. Tasks of methods that are not guarded go to the delegate untouched.
 * A guarded task is handed to the delegate as a {@link GuardedFiring} under a
 * {@link FireTimeTrigger}: cron times as Spring's {@code CronTrigger} computes them, fixed-rate
 * times on the cluster-wide grid. Fixed-delay tasks keep the delegate's own fixed-delay scheduling
 * and take the node's own instant as their time (the cluster-wide gap is the job's cool-down). The delegate reschedules the
 * trigger with its own {@code TriggerContext}, so fire times are computed on the clock of the
 * scheduler that runs the task (behind Spring's scheduler router, the scheduler it routes to).
 *
 * @param delegate        the scheduler that runs every task
 * @param registry        the guarded methods, to recognize their tasks
 * @param fireTimeHandOff carries each firing's nominal fire time to the {@code @ClusterSingleton} advice
 */
record NominalTimeTaskScheduler(TaskScheduler delegate, GuardedJobRegistry registry, FireTimeHandOff fireTimeHandOff)
        implements TaskScheduler {

    private static final Logger log = LoggerFactory.getLogger(NominalTimeTaskScheduler.class);

    @Override
    public Clock getClock() {
        return delegate.getClock();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        return route(task, () -> delegate.schedule(task, trigger),
                job -> drive(task, job, FireTimeTrigger.of(job, trigger)));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        return route(task, () -> delegate.schedule(task, startTime),
                job -> delegate.schedule(firing(task, job, () -> startTime), startTime));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        return route(task, () -> delegate.scheduleAtFixedRate(task, startTime, period),
                job -> drive(task, job, FireTimeTrigger.alignedRate(job, grid(job, period), fromNow(startTime))));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        return route(task, () -> delegate.scheduleAtFixedRate(task, period),
                job -> drive(task, job, FireTimeTrigger.alignedRate(job, grid(job, period), Duration.ZERO)));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        return route(task, () -> delegate.scheduleWithFixedDelay(task, startTime, delay),
                job -> delegate.scheduleWithFixedDelay(ownInstant(task, job), startTime, delay));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        return route(task, () -> delegate.scheduleWithFixedDelay(task, delay),
                job -> delegate.scheduleWithFixedDelay(ownInstant(task, job), delay));
    }

    /** A task of no guarded method goes to the delegate untouched; a guarded method's task is scheduled by {@code guarded}. */
    private ScheduledFuture<?> route(Runnable task, Supplier<ScheduledFuture<?>> unguarded,
                                     Function<GuardedJob, ScheduledFuture<?>> guarded) {
        GuardedJob job = guarded(task);
        return job == null ? unguarded.get() : guarded.apply(job);
    }

    /** The guarded firing of the task, the job marked as routed through this scheduler. */
    private GuardedFiring firing(Runnable task, GuardedJob job, Supplier<Instant> nominalFireTime) {
        job.markRouted(delegate);
        return new GuardedFiring(task, job, nominalFireTime, fireTimeHandOff);
    }

    /**
     * A fixed-delay firing: such a schedule has no grid shared by the nodes, so its nominal time is
     * the node's own instant when it fires (the cluster-wide gap is the job's cool-down). The
     * delegate keeps its own fixed-delay semantics (on a virtual-thread scheduler, the delay
     * counts from the end of the run).
     */
    private GuardedFiring ownInstant(Runnable task, GuardedJob job) {
        return firing(task, job, () -> job.schedule().latestAtOrBefore(job.clock().instant()));
    }

    /**
     * Hands the schedule to the delegate as a trigger, so the scheduler that runs the task
     * reschedules it (on its own clock, virtual threads included); each firing claims its nominal
     * time from the trigger, which named it when the scheduler delayed the firing to it.
     */
    private ScheduledFuture<?> drive(Runnable task, GuardedJob job, FireTimeTrigger trigger) {
        log.debug("job-guard: job '{}' scheduled with nominal fire times from {}", job.options().name(), trigger);
        return delegate.schedule(firing(task, job, trigger::claim), trigger);
    }

    /**
     * How far {@code startTime} is from now: the registrar computes start times on
     * {@link #getClock()}, while the task runs on the clock of the scheduler it is routed to.
     */
    private Duration fromNow(Instant startTime) {
        Duration delay = Duration.between(getClock().instant(), startTime);
        return delay.isNegative() ? Duration.ZERO : delay;
    }

    private static ScheduleSpec grid(GuardedJob job, Duration period) {
        ScheduleSpec spec = job.schedule();
        if (spec.kind() == ScheduleSpec.Kind.FIXED_RATE && spec.period().equals(period)) {
            return spec;
        }
        return new ScheduleSpec(ScheduleSpec.Kind.FIXED_RATE, null, null, period, spec.initialDelay());
    }

    /**
     * The guarded job of a scheduled task: by type when the task is Spring's method runnable
     * (target and {@code Method}); Spring's registrar hands schedulers its own outcome-tracking
     * wrapper, which exposes neither but prints exactly what the method runnable prints, so that
     * is matched by its text. A wrapper that prints anything else hides the method: the job is
     * then never marked routed and {@link GuardInPathCheck} refuses the context.
     */
    private GuardedJob guarded(Runnable task) {
        if (task instanceof ScheduledMethodRunnable method) {
            GuardedJob job = registry.forCall(method.getTarget(), method.getMethod()).orElse(null);
            if (job != null) {
                return job;
            }
        }
        String key = String.valueOf(task);
        List<GuardedJob> jobs = registry.forRunnableKey(key);
        int proxy = key.indexOf("$$");
        int dot = key.lastIndexOf('.');
        if (jobs.isEmpty() && proxy > 0 && dot > proxy) {
            // Spring's runnable of a reactive method prints the bean's (proxy) class: Foo$$SpringCGLIB$$0.run
            jobs = registry.forRunnableKey(key.substring(0, proxy) + key.substring(dot));
        }
        return jobs.isEmpty() ? null : jobs.get(0);
    }

    @Override
    public String toString() {
        return "NominalTimeTaskScheduler[" + delegate + "]";
    }
}
