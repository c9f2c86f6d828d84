package io.jobguard.spring.firing;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;

import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The trigger of one guarded schedule, driven by the scheduler's own rescheduling: it names each
 * nominal fire time and hands the named times, in order, to the firings they belong to. The
 * scheduler runs one firing per named time, in the order named; a scheduler that runs firings on
 * other threads (virtual threads) may already have named the next time when a firing starts, which
 * is why each firing claims the oldest unclaimed time rather than reading the latest. It adds to
 * Spring's triggers only what the once-per-fire-time guarantee needs:
 * <ul>
 *   <li>fire times computed on the clock of the {@link TriggerContext} the scheduler passes (the
 *       clock it delays the task by; behind Spring's router, the clock of the scheduler the task is
 *       routed to), and that clock handed to the job for direct calls;</li>
 *   <li>fixed-rate times on the cluster-wide grid of {@link ScheduleSpec}: multiples of the period
 *       since the epoch, plus {@code initialDelay mod period}, so nodes that started at different
 *       times name the same instants. The first time is the first grid point at or after the start;
 *       after that one period after the previous time, so a run that overruns is followed at once by
 *       the next time (as {@code ScheduledExecutorService} does), but times older than one period
 *       are skipped rather than replayed one by one.</li>
 * </ul>
 * Other times are those of the wrapped Spring trigger (the registrar's {@code CronTrigger}, or any
 * trigger the application schedules the method with).
 */
final class FireTimeTrigger implements Trigger {

    private final GuardedJob job;
    private final Trigger spring;
    private final ScheduleSpec grid;
    private final Duration startDelay;
    private final Queue<Instant> unclaimed = new ConcurrentLinkedQueue<>();
    private volatile Instant latest;

    private FireTimeTrigger(GuardedJob job, Trigger spring, ScheduleSpec grid, Duration startDelay) {
        this.job = job;
        this.spring = spring;
        this.grid = grid;
        this.startDelay = startDelay;
    }

    /** Fire times as a Spring trigger computes them (a {@code CronTrigger}, or any other). */
    static FireTimeTrigger of(GuardedJob job, Trigger spring) {
        return new FireTimeTrigger(job, spring, null, null);
    }

    /**
     * Fixed-rate fire times on the cluster-wide grid.
     *
     * @param grid       the fixed-rate schedule
     * @param startDelay how long after the first call the schedule starts (its initial delay)
     */
    static FireTimeTrigger alignedRate(GuardedJob job, ScheduleSpec grid, Duration startDelay) {
        return new FireTimeTrigger(job, null, grid, startDelay.isNegative() ? Duration.ZERO : startDelay);
    }

    @Override
    public Instant nextExecution(TriggerContext context) {
        if (job != null && context.lastScheduledExecution() == null) {
            job.clock(context.getClock());
        }
        Instant next = spring != null ? spring.nextExecution(context) : nextOnGrid(context);
        if (next != null) {
            latest = next;
            unclaimed.add(next);
        }
        return next;
    }

    /**
     * Claims the fire time of the firing that starts now: the oldest named time no firing claimed.
     *
     * @return that time (the latest named one if, unexpectedly, every time was claimed)
     */
    Instant claim() {
        Instant next = unclaimed.poll();
        return next != null ? next : latest;
    }

    private Instant nextOnGrid(TriggerContext context) {
        Duration period = grid.period();
        Instant now = context.getClock().instant();
        Instant last = context.lastScheduledExecution();
        if (last == null) {
            Instant start = now.plus(startDelay);
            Instant floor = grid.latestAtOrBefore(start);
            return floor.isBefore(start) ? floor.plus(period) : floor;
        }
        Instant next = last.plus(period);
        if (next.isBefore(now.minus(period))) {
            return grid.latestAtOrBefore(now);
        }
        return next;
    }

    @Override
    public String toString() {
        return "FireTimeTrigger[" + (spring != null ? spring : "aligned " + grid.describe()) + "]";
    }
}
