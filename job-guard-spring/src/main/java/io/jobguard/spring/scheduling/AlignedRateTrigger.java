package io.jobguard.spring.scheduling;

import io.jobguard.spring.internal.ScheduleSpec;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;

import java.time.Duration;
import java.time.Instant;

/**
 * Fixed-rate fire times on the cluster-wide grid of {@link ScheduleSpec}: multiples of the period
 * since the epoch, plus {@code initialDelay mod period}, so every node names the same instants.
 * The first time is the first grid point at or after the start; after that, one period after the
 * previous time, so a run that overruns is followed at once by the next time (as
 * {@code ScheduledExecutorService} does), but times older than one period are skipped rather than
 * replayed one by one.
 */
final class AlignedRateTrigger implements Trigger {

    private final ScheduleSpec grid;
    private final Duration period;
    private final Instant start;

    AlignedRateTrigger(ScheduleSpec grid, Instant start) {
        this.grid = grid;
        this.period = grid.period();
        this.start = start;
    }

    @Override
    public Instant nextExecution(TriggerContext context) {
        Instant last = context.lastScheduledExecution();
        if (last == null) {
            Instant floor = grid.latestAtOrBefore(start);
            return floor.isBefore(start) ? floor.plus(period) : floor;
        }
        Instant next = last.plus(period);
        Instant now = context.getClock().instant();
        if (next.isBefore(now.minus(period))) {
            return grid.latestAtOrBefore(now);
        }
        return next;
    }

    @Override
    public String toString() {
        return "AlignedRateTrigger[" + grid.describe() + "]";
    }
}
