package io.jobguard.redis;

import io.jobguard.internal.redis.fleet.FleetLeads;

import java.util.function.LongSupplier;

/**
 * Lets a node JVM of the tests step the wall clock a store's {@link FleetLeads} reads its clock offset and steps
 * from (the system clock cannot be stepped without privileges).
 */
public final class FleetLeadsClock {

    private FleetLeadsClock() {
    }

    /**
     * Replaces the wall clock of the store's fleet-leads publisher.
     *
     * @param store the store
     * @param wall  the wall clock in epoch milliseconds; a jump of more than 200 ms against the monotonic clock is a step
     */
    public static void wallClock(RedisLeaseStore store, LongSupplier wall) {
        store.fleetLeads().wallClock(wall);
    }
}
