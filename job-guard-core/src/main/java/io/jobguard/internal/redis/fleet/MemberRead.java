package io.jobguard.internal.redis.fleet;

import io.jobguard.store.FleetMembers;

import java.util.HashMap;
import java.util.Map;

/** The members of one publication's reads: per node its latest entry over the shards' hashes. */
final class MemberRead {
    private long at = -1;
    private final Map<String, Long> publishedAt = new HashMap<>();
    private final Map<String, String> publications = new HashMap<>();
    private final Map<String, Long> lateness = new HashMap<>();

    void entry(long readAt, String node, long entryAt, String[] fields) {
        at = Math.max(at, readAt);
        Long before = publishedAt.get(node);
        if (before != null && before >= entryAt) {
            return;
        }
        publishedAt.put(node, entryAt);
        publications.put(node, fields.length > 3 ? fields[3] : "");
        if (fields.length > 2 && !fields[2].isEmpty()) {
            lateness.put(node, Long.parseLong(fields[2]));
        } else {
            lateness.remove(node);
        }
    }

    FleetMembers members() {
        return new FleetMembers(at, publications, lateness);
    }
}
