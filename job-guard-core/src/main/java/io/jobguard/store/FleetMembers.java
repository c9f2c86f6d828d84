package io.jobguard.store;

import java.util.Map;

/**
 * One read of the fleet's member publications ({@link FleetView#joinFleet}): every node that published within the
 * store's liveness horizon, with what it published.
 *
 * @param readAt       the store's clock at the read (epoch millis)
 * @param publications per live node id: what it published ({@code ""} when it published nothing beside its clock)
 * @param lateness     per live node id that publishes it: how late it fires (store millis, signed)
 */
public record FleetMembers(long readAt, Map<String, String> publications, Map<String, Long> lateness) {

    /** Copies the maps. */
    public FleetMembers {
        publications = Map.copyOf(publications);
        lateness = Map.copyOf(lateness);
    }
}
