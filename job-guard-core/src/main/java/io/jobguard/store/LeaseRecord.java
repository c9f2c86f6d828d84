package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;

/**
 * What a store knows about a lease or a fire-time marker: who holds or held it, for which fire
 * time, since when, with which fencing token. A value that job-guard did not write is reported
 * with {@link #foreign()} set and {@link #raw()} holding it.
 *
 * @param ownerToken      the holder's token (empty when foreign)
 * @param nodeId          the holder's node (empty when foreign)
 * @param nominalFireTime the fire time it was taken for (null when foreign or unknown)
 * @param acquiredAt      when it was taken, by the store's clock (null when foreign or unknown)
 * @param fencingToken    the fencing token (-1 when foreign or not supported)
 * @param expiresIn       time to live left (null when unknown, e.g. for history entries)
 * @param foreign         whether the value was written by something other than job-guard
 * @param raw             the stored value as text
 */
public record LeaseRecord(String ownerToken, String nodeId, Instant nominalFireTime, Instant acquiredAt,
                          long fencingToken, Duration expiresIn, boolean foreign, String raw) {

    /**
     * A record for a value that job-guard did not write.
     *
     * @param raw       the value as text
     * @param expiresIn its time to live, or null
     * @return a foreign record
     */
    public static LeaseRecord foreign(String raw, Duration expiresIn) {
        return new LeaseRecord("", "", null, null, -1, expiresIn, true, raw);
    }

    /**
     * The same record with a time to live.
     *
     * @param ttl the time to live
     * @return a copy with {@code expiresIn = ttl}
     */
    public LeaseRecord withExpiresIn(Duration ttl) {
        return new LeaseRecord(ownerToken, nodeId, nominalFireTime, acquiredAt, fencingToken, ttl, foreign, raw);
    }

    /**
     * Who holds it, for log lines.
     *
     * @return the node id, or {@code foreign value 'raw'}
     */
    public String describeHolder() {
        return foreign ? "foreign value '" + raw + "'" : nodeId;
    }
}
