package io.jobguard.internal.engine;

import io.jobguard.FireTimeSchedule;
import io.jobguard.RecoveryOptions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The walk over a job's schedule that recovery needs, bounded by its catch-up window (the window ends at the
 * caller's "now"): the fire time before a given one, and the fire times between two instants. Stateless; at most
 * {@value #MAX_STEPS} steps per walk, so a schedule with a tiny period over a long gap cannot stall a firing.
 */
final class CatchUpWindow {

    /** Bounds the walk over a schedule (an every-second job over a long window). */
    private static final int MAX_STEPS = 100_000;

    private CatchUpWindow() {
    }

    /**
     * The schedule's fire time immediately before {@code nominalFireTime}, or null (no gap check) when the schedule has
     * none or it lies before the catch-up window. Found by looking back 1 ms, 2 ms, 4 ms ... until a fire time lies
     * in between, then walking forward to the last one: a few calls whatever the window and the period. The
     * window ends at {@code now}.
     */
    static Instant previous(RecoveryOptions recovery, Instant nominalFireTime, Instant now) {
        FireTimeSchedule schedule = recovery.schedule();
        if (schedule == null) {
            return null;
        }
        Instant windowStart = now.minus(recovery.catchUpWindow());
        Instant found = null;
        for (long back = 1; found == null; back *= 2) {
            Instant from = nominalFireTime.minusMillis(back);
            Instant next = schedule.next(from);
            if (next != null && next.isBefore(nominalFireTime)) {
                found = next;
            } else if (from.isBefore(windowStart) || back > Long.MAX_VALUE / 4) {
                return null;
            }
        }
        Instant next = schedule.next(found);
        for (int steps = 0; next != null && next.isBefore(nominalFireTime) && steps < MAX_STEPS; steps++) {
            found = next;
            next = schedule.next(next);
        }
        return found.isBefore(windowStart) ? null : found;
    }

    /**
     * The schedule's fire times after {@code after} and before {@code end} (or at it, if {@code inclusive}), at most
     * {@value #MAX_STEPS} of them: those in the catch-up window listed in order, the older ones only counted. None
     * when the job has no schedule. The window ends at {@code now}.
     */
    static FireTimes between(RecoveryOptions recovery, Instant after, Instant end, boolean inclusive, Instant now) {
        FireTimeSchedule schedule = recovery.schedule();
        List<Instant> inWindow = new ArrayList<>();
        int outside = 0;
        if (schedule == null) {
            return new FireTimes(inWindow, outside);
        }
        Instant windowStart = now.minus(recovery.catchUpWindow());
        Instant next = schedule.next(after);
        for (int steps = 0; next != null && steps < MAX_STEPS
                && (next.isBefore(end) || (inclusive && next.equals(end))); steps++) {
            if (next.isBefore(windowStart)) {
                outside++;
            } else {
                inWindow.add(next);
            }
            next = schedule.next(next);
        }
        return new FireTimes(inWindow, outside);
    }

    /**
     * Fire times of a schedule between two instants.
     *
     * @param inWindow those in the catch-up window, in order
     * @param outside  how many were older than the window
     */
    record FireTimes(List<Instant> inWindow, int outside) {
    }
}
