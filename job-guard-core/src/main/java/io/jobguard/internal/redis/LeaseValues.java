package io.jobguard.internal.redis;

import io.jobguard.store.LeaseRecord;

import java.time.Duration;
import java.time.Instant;

/**
 * Reads the plain-string values job-guard stores under its keys:
 * {@code jg1|<token>|<T millis>|<acquired-at millis>|<fencing token>|<node id>}. The node id is
 * last so that it may contain the separator. Anything else is reported as a foreign value.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class LeaseValues {

    private static final String VERSION = "jg1";

    private LeaseValues() {
    }

    /**
     * Parses a stored value.
     *
     * @param raw       the value, or null
     * @param expiresIn its time to live (null if unknown)
     * @return the record, or null for a null value
     */
    public static LeaseRecord parse(String raw, Duration expiresIn) {
        if (raw == null) {
            return null;
        }
        String[] parts = raw.split("\\|", 6);
        if (parts.length != 6 || !VERSION.equals(parts[0])) {
            return LeaseRecord.foreign(raw, expiresIn);
        }
        try {
            Instant nominalFireTime = parts[2].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(parts[2]));
            Instant acquiredAt = Instant.ofEpochMilli(Long.parseLong(parts[3]));
            long fence = Long.parseLong(parts[4]);
            return new LeaseRecord(parts[1], parts[5], nominalFireTime, acquiredAt, fence, expiresIn, false, raw);
        } catch (NumberFormatException e) {
            return LeaseRecord.foreign(raw, expiresIn);
        }
    }

    /**
     * Converts a PTTL reply to a duration.
     *
     * @param pttl milliseconds, or -1 (no TTL) / -2 (no key)
     * @return the duration, or null when the key has no TTL or does not exist
     */
    public static Duration ttl(long pttl) {
        return pttl >= 0 ? Duration.ofMillis(pttl) : null;
    }
}
