package io.jobguard.spring.scheduling;

import io.jobguard.spring.internal.FireTimeHolder;
import io.jobguard.spring.internal.GuardedJob;
import io.jobguard.spring.internal.GuardedJobRegistry;
import io.jobguard.spring.internal.ScheduleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.scheduling.SchedulingAwareRunnable;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.PeriodicTrigger;
import org.springframework.scheduling.support.ScheduledMethodRunnable;
import org.springframework.util.ClassUtils;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * A {@link TaskScheduler} decorator that gives every firing of a guarded {@code @Scheduled} method
 * its own nominal fire time. Tasks of methods that are not guarded go to the delegate untouched.
 * For guarded ones the decorator drives the trigger itself (see {@link TriggerDriver}): cron times
 * as the trigger computes them, fixed-rate times on the cluster-wide grid, fixed-delay times as
 * the node's own schedule (the cluster-wide gap is the job's cool-down). Fire times are computed on
 * the clock of the scheduler that runs the task: behind Spring's scheduler router, the clock of the
 * scheduler it routes the task to (see {@link TargetSchedulerClock}).
 */
final class NominalTimeTaskScheduler implements TaskScheduler {

    private static final Logger log = LoggerFactory.getLogger(NominalTimeTaskScheduler.class);

    private final TaskScheduler delegate;
    private final GuardedJobRegistry registry;
    private final TargetSchedulerClock clocks;

    NominalTimeTaskScheduler(TaskScheduler delegate, GuardedJobRegistry registry, TargetSchedulerClock clocks) {
        this.delegate = delegate;
        this.registry = registry;
        this.clocks = clocks;
    }

    TaskScheduler delegate() {
        return delegate;
    }

    @Override
    public Clock getClock() {
        return delegate.getClock();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        GuardedJob job = guarded(task);
        if (job == null) {
            return delegate.schedule(task, trigger);
        }
        return drive(task, job, clocks.of(delegate, task), trigger);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        GuardedJob job = guarded(task);
        if (job == null) {
            return delegate.schedule(task, startTime);
        }
        job.markRouted();
        return delegate.schedule(new OneShot(task, job.runnableKey(), startTime), startTime);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        GuardedJob job = guarded(task);
        if (job == null) {
            return delegate.scheduleAtFixedRate(task, startTime, period);
        }
        Clock clock = clocks.of(delegate, task);
        return drive(task, job, clock, new AlignedRateTrigger(grid(job, period), onClock(startTime, clock)));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        GuardedJob job = guarded(task);
        if (job == null) {
            return delegate.scheduleAtFixedRate(task, period);
        }
        Clock clock = clocks.of(delegate, task);
        return drive(task, job, clock, new AlignedRateTrigger(grid(job, period), clock.instant()));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        GuardedJob job = guarded(task);
        if (job == null) {
            return delegate.scheduleWithFixedDelay(task, startTime, delay);
        }
        PeriodicTrigger trigger = new PeriodicTrigger(delay);
        // the registrar computed startTime on getClock(); the delay from now is what it means
        Duration initial = Duration.between(getClock().instant(), startTime);
        trigger.setInitialDelay(initial.isNegative() ? Duration.ZERO : initial);
        return drive(task, job, clocks.of(delegate, task), trigger);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        GuardedJob job = guarded(task);
        if (job == null) {
            return delegate.scheduleWithFixedDelay(task, delay);
        }
        return drive(task, job, clocks.of(delegate, task), new PeriodicTrigger(delay));
    }

    private ScheduledFuture<?> drive(Runnable task, GuardedJob job, Clock clock, Trigger trigger) {
        job.markRouted();
        job.clock(clock);
        log.debug("job-guard: job '{}' scheduled with nominal fire times from {} on {}", job.options().name(),
                trigger, clock);
        return new TriggerDriver(task, job.runnableKey(), trigger, delegate, clock).start();
    }

    /**
     * The instant that is as far from now on {@code clock} as {@code startTime} is from now on this
     * scheduler's clock (the registrar computes start times on {@link #getClock()}).
     */
    private Instant onClock(Instant startTime, Clock clock) {
        Clock own = getClock();
        if (own.equals(clock)) {
            return startTime;
        }
        return clock.instant().plus(Duration.between(own.instant(), startTime));
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
            Class<?> type = ClassUtils.getUserClass(AopUtils.getTargetClass(method.getTarget()));
            GuardedJob job = registry.forMethod(type,
                    BridgeMethodResolver.findBridgedMethod(AopUtils.getMostSpecificMethod(method.getMethod(), type))).orElse(null);
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

    /** A one-time firing of a guarded method: its nominal time is its start time. */
    private static final class OneShot implements SchedulingAwareRunnable {
        private final Runnable task;
        private final String runnableKey;
        private final Instant nominal;

        OneShot(Runnable task, String runnableKey, Instant nominal) {
            this.task = task;
            this.runnableKey = runnableKey;
            this.nominal = nominal;
        }

        @Override
        public void run() {
            FireTimeHolder.runWith(runnableKey, nominal, task);
        }

        @Override
        public boolean isLongLived() {
            return task instanceof SchedulingAwareRunnable s ? s.isLongLived() : SchedulingAwareRunnable.super.isLongLived();
        }

        @Override
        public String getQualifier() {
            return task instanceof SchedulingAwareRunnable s ? s.getQualifier() : null;
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }
}
