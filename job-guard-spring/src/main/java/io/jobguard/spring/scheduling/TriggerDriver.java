package io.jobguard.spring.scheduling;

import io.jobguard.spring.internal.FireTimeHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.SchedulingAwareRunnable;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Drives a trigger on top of a scheduler's one-shot {@code schedule(Runnable, Instant)}: computes
 * each fire time with its own {@link SimpleTriggerContext} on the clock the scheduler delays the
 * task by (behind Spring's router: the clock of the scheduler it routes the task to), hands that
 * instant to the firing it belongs to, and schedules the next fire time when the firing ends (the
 * semantics of Spring's own rescheduling, on any scheduler, virtual threads included). Acts as the
 * {@link ScheduledFuture} of the whole schedule.
 */
final class TriggerDriver implements ScheduledFuture<Object> {

    private static final Logger log = LoggerFactory.getLogger(TriggerDriver.class);

    private final Runnable task;
    private final String runnableKey;
    private final Trigger trigger;
    private final TaskScheduler scheduler;
    private final Clock clock;
    private final SimpleTriggerContext context;
    private final CompletableFuture<Object> done = new CompletableFuture<>();
    private final Object lock = new Object();
    private ScheduledFuture<?> current;
    private Instant scheduledTime;
    private boolean cancelled;

    /**
     * @param clock the clock {@code scheduler} delays this task by (for a router: its target's clock)
     */
    TriggerDriver(Runnable task, String runnableKey, Trigger trigger, TaskScheduler scheduler, Clock clock) {
        this.task = task;
        this.runnableKey = runnableKey;
        this.trigger = trigger;
        this.scheduler = scheduler;
        this.clock = clock;
        this.context = new SimpleTriggerContext(clock);
    }

    TriggerDriver start() {
        synchronized (lock) {
            scheduleNext();
        }
        return this;
    }

    /** Called with the lock held. */
    private void scheduleNext() {
        if (cancelled) {
            return;
        }
        Instant next = trigger.nextExecution(context);
        if (next == null) {
            current = null;
            scheduledTime = null;
            done.complete(null);
            return;
        }
        scheduledTime = next;
        current = scheduler.schedule(new Firing(next), next);
    }

    private void fired(Instant nominal, Instant actualStart) {
        synchronized (lock) {
            context.update(nominal, actualStart, clock.instant());
            try {
                scheduleNext();
            } catch (RejectedExecutionException e) {
                // the scheduler is shutting down: the schedule ends here, quietly, as the context closes
                log.debug("job-guard: scheduler no longer accepts {}; schedule ended", runnableKey);
                cancelled = true;
                current = null;
                scheduledTime = null;
                done.cancel(false);
            }
        }
    }

    @Override
    public long getDelay(TimeUnit unit) {
        Instant next;
        synchronized (lock) {
            next = scheduledTime;
        }
        if (next == null) {
            return 0;
        }
        return unit.convert(Duration.between(clock.instant(), next).toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
        return other == this ? 0 : Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        synchronized (lock) {
            if (cancelled || done.isDone()) {
                return false;
            }
            cancelled = true;
            if (current != null) {
                current.cancel(mayInterruptIfRunning);
            }
        }
        return done.cancel(false);
    }

    @Override
    public boolean isCancelled() {
        synchronized (lock) {
            return cancelled;
        }
    }

    @Override
    public boolean isDone() {
        return done.isDone();
    }

    @Override
    public Object get() throws InterruptedException, ExecutionException {
        return done.get();
    }

    @Override
    public Object get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return done.get(timeout, unit);
    }

    @Override
    public String toString() {
        return "TriggerDriver[" + runnableKey + ", " + trigger + "]";
    }

    /** One firing: knows its own nominal fire time; forwards the task's qualifier and long-lived flag. */
    private final class Firing implements SchedulingAwareRunnable {
        private final Instant nominal;

        Firing(Instant nominal) {
            this.nominal = nominal;
        }

        @Override
        public void run() {
            Instant actualStart = clock.instant();
            try {
                FireTimeHolder.runWith(runnableKey, nominal, task);
            } finally {
                fired(nominal, actualStart);
            }
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
            return task + " @ " + nominal;
        }
    }
}
