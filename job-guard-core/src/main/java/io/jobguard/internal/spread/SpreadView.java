package io.jobguard.internal.spread;

import java.time.Instant;
import java.util.Map;

/**
 * One read of the fleet as a node uses it: the nodes that declared its jobs, each job's node among them, and each
 * node's lateness, with the store's clock at the read.
 *
 * @param digest     the digest of the member node ids
 * @param members    per member node: its publication
 * @param assignment per job: its node
 * @param lateness   per node: how late it fires (store millis)
 * @param readAt     the store's clock at the read (epoch millis)
 * @param readNanos  this node's {@link System#nanoTime()} at the read
 */
record SpreadView(String digest, Map<String, MemberPublication> members, Map<String, String> assignment,
                  Map<String, Long> lateness, long readAt, long readNanos) {

    /** The store's clock now, as far as this read tells. */
    long storeNow() {
        return readAt + (System.nanoTime() - readNanos) / 1_000_000L;
    }

    /** Whether the read is recent enough to leave a fire time to another node ({@link FleetSpread#FRESH_MILLIS}). */
    boolean fresh() {
        return System.nanoTime() - readNanos < FleetSpread.FRESH_MILLIS * 1_000_000L;
    }

    /**
     * Why a node takes a fire time it left over now: {@code null} when the job's assigned node covered it, {@code ""}
     * when it waits on, else the reason (the assigned node is not live, is the asking node, or did not cover it within
     * its lateness and {@link FleetSpread#GRACE_MILLIS}).
     */
    String takeOverReason(String nodeId, String job, long t) {
        String assigned = assignment.get(job);
        MemberPublication m = assigned == null ? null : members.get(assigned);
        if (m == null) {
            return "its assigned node " + (assigned == null ? "(none)" : assigned) + " is not live";
        }
        if (assigned.equals(nodeId)) {
            return "its assigned node is now this node";
        }
        if (m.covers(digest, t)) {
            return null;
        }
        long deadline = storeNow() - Math.max(0, lateness.getOrDefault(assigned, 0L)) - FleetSpread.GRACE_MILLIS;
        return t >= deadline ? "" : "its assigned node " + assigned + " did not cover it in time (its coverage reaches "
                + Instant.ofEpochMilli(m.covered())
                + (m.fleet().equals(digest) ? "" : ", in a view of the fleet this node does not share") + ")";
    }

    /** The largest lateness of any node of the read, 0 when none is known. */
    long largestLateness() {
        return lateness.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }
}
