package io.jobguard.test.spring;

import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler that runs nothing by itself: it keeps every task handed to it with its trigger, so that a test fires a
 * task for the fire time it chooses ({@link GuardedJobs#fire}). In a test context it stands where the application's
 * scheduler stood, behind job-guard's scheduler decorator, so a guarded method's task reaches it as the decorator
 * made it (the firing that hands its fire time to the {@code @ClusterSingleton} advice, and the trigger that names
 * the fire times). Thread-safe.
 */
final class ManualTaskScheduler implements TaskScheduler {

    private final List<Scheduled> tasks = new CopyOnWriteArrayList<>();

    /** One task as it was handed over; {@code trigger} is null for fixed-rate, fixed-delay and one-time tasks. */
    record Scheduled(Runnable task, Trigger trigger) {
    }

    /**
     * The task whose text is {@code key} (Spring's scheduled method runnables print {@code Class.method}).
     *
     * @param key what the task prints
     * @return the first such task, or empty
     */
    Optional<Scheduled> find(String key) {
        return tasks.stream().filter(s -> String.valueOf(s.task()).equals(key)).findFirst();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        return keep(task, trigger);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        return keep(task, null);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        return keep(task, null);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        return keep(task, null);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        return keep(task, null);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        return keep(task, null);
    }

    private ScheduledFuture<?> keep(Runnable task, Trigger trigger) {
        Scheduled scheduled = new Scheduled(task, trigger);
        tasks.add(scheduled);
        return new Kept(scheduled);
    }

    @Override
    public String toString() {
        return "ManualTaskScheduler[" + tasks.size() + " tasks]";
    }

    /** The handle of a kept task: never due by itself; cancelling it forgets the task. */
    private final class Kept implements ScheduledFuture<Object> {
        private final Scheduled scheduled;
        private volatile boolean cancelled;

        Kept(Scheduled scheduled) {
            this.scheduled = scheduled;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return Long.MAX_VALUE;
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = tasks.remove(scheduled) || cancelled;
            return cancelled;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled;
        }

        @Override
        public Object get() {
            throw new UnsupportedOperationException("a manually fired task never completes by itself");
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException("a manually fired task never completes by itself");
        }
    }
}
