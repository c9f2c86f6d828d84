package io.jobguard.redis;

import io.jobguard.store.JobId;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The fleet's measured lead per job: how long before its nominal fire time a fire time was taken,
 * by Redis {@code TIME}. Every acquire reply names who took the fire time (or holds the lease) with
 * the fire time and the Redis time it was taken at, so each node sees the lead of whichever node
 * wins, usually the one whose scheduler clock runs furthest ahead, without any extra publication.
 *
 * <p>After Redis lost a job's history at E, a fire time T may have run before the loss only if some
 * node took it before E, that is at T minus its lead; so T &lt; E + lead. The refusal window sent to
 * {@code run-acquire.lua} is therefore the largest lead seen recently plus {@link #MARGIN}, bounded
 * above by the engine's skew tolerance, and
 * the skew tolerance itself while this node has seen no fire time taken (a node that just started,
 * a job that fires rarely): it never refuses less than what the observed fleet could have run.
 *
 * <p>Kept in memory, so it survives the loss it is needed for. The largest lead is forgotten
 * {@link #STALE} after it was last seen (a node with a fast clock that left, or was fixed), and
 * replaced by the next observation. Bounded by the number of jobs this node guards.
 */
final class FireTimeLeads {

    /**
     * Added to the largest lead seen: a take just before the loss may have had a slightly larger lead
     * than any seen (the leading node's wake-up jitter, a few ms here), and after a failover the new
     * primary's clock may be behind the old one's (NTP keeps servers within milliseconds). Every
     * millisecond of margin is a millisecond of fire times refused after a loss that never ran.
     */
    static final Duration MARGIN = Duration.ofMillis(250);
    /** How long the largest lead stands without being seen again. */
    static final Duration STALE = Duration.ofMinutes(15);

    private record Lead(long millis, long seenAtNanos) {
    }

    private final Map<JobId, Lead> leads = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    FireTimeLeads(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Records that {@code fireTime} was taken at {@code takenAt} (Redis time). A fire time taken
     * after it came (a late node, a WAIT that waited) counts as a lead of 0.
     */
    void saw(JobId job, Instant fireTime, Instant takenAt) {
        if (fireTime == null || takenAt == null) {
            return;
        }
        long lead = Math.max(0, fireTime.toEpochMilli() - takenAt.toEpochMilli());
        long now = nanoTime.getAsLong();
        leads.compute(job, (j, old) -> old == null || lead >= old.millis() || now - old.seenAtNanos() > STALE.toNanos()
                ? new Lead(lead, now) : old);
    }

    /**
     * The history-loss window for the job: the largest recent lead plus {@link #MARGIN}, at most
     * {@code bound}; {@code bound} when no lead was seen within {@link #STALE}.
     */
    Duration window(JobId job, Duration bound) {
        Lead lead = leads.get(job);
        if (lead == null || nanoTime.getAsLong() - lead.seenAtNanos() > STALE.toNanos()) {
            return bound;
        }
        Duration window = Duration.ofMillis(lead.millis()).plus(MARGIN);
        return window.compareTo(bound) < 0 ? window : bound;
    }
}
