package io.jobguard;

import java.time.Instant;

/**
 * A job's grid of nominal fire times, for finding the fire times that were missed. Adapters derive
 * it from the cron expression, the fixed rate or the Quartz trigger; it must give the same grid on
 * every node.
 */
@FunctionalInterface
public interface FireTimeSchedule {

    /**
     * Returns the first fire time strictly after {@code after}.
     *
     * @param after an instant
     * @return the next fire time, or null if the schedule has none
     */
    Instant next(Instant after);
}
