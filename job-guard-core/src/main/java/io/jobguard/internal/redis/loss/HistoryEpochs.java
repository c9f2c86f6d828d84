package io.jobguard.internal.redis.loss;

import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's memory of each job's epoch in Redis (see {@code run-acquire.lua}): the creation time
 * of the epoch it saw last. A node that remembers an epoch and finds it gone or replaced knows that
 * Redis lost the job's history; a node that never saw one cannot tell a new job from a loss.
 * It also remembers the highest fencing token it saw per job: a store whose counter is below it
 * lost writes even if its epoch survived (a failover to a replica that missed them). Bounded by the
 * number of jobs this node guards.
 */
public final class HistoryEpochs {

    private final Map<JobId, String> seen = new ConcurrentHashMap<>();
    private final Map<JobId, Long> tokens = new ConcurrentHashMap<>();
    private final Map<JobId, Long> handled = new ConcurrentHashMap<>();

    public String lastSeen(JobId job) {
        return seen.getOrDefault(job, "");
    }

    public void saw(JobId job, String created) {
        if (created != null && !created.isEmpty()) {
            seen.put(job, created);
        }
    }

    public String highestToken(JobId job) {
        return Long.toString(tokens.getOrDefault(job, 0L));
    }

    public void sawToken(JobId job, long token) {
        if (token > 0) {
            tokens.merge(job, token, Math::max);
        }
    }

    /**
     * The latest fire time this node saw handled for the job ({@code ""} if none): the acquire script restores the
     * job's run record from it when a loss took the record, so that the fire times after it are not lost in silence.
     */
    public String handled(JobId job) {
        Long millis = handled.get(job);
        return millis == null ? "" : Long.toString(millis);
    }

    /** Records an acquire's answer: granted, taken before, refused after a loss or declared missed handle the fire time. */
    public void answered(JobId job, String status, Instant nominalFireTime) {
        switch (status) {
            case "ACQUIRED", "ALREADY_RAN", "HISTORY_LOST", "MISSED" -> handled.merge(job, nominalFireTime.toEpochMilli(), Math::max);
            default -> {
            }
        }
    }

    /** The epoch of a HISTORY_LOST reply ({@code <created millis>|lost}) as a record: acquiredAt = creation. */
    public static LeaseRecord record(String epoch) {
        Instant created = null;
        int bar = epoch == null ? -1 : epoch.indexOf('|');
        if (bar > 0) {
            try {
                created = Instant.ofEpochMilli(Long.parseLong(epoch.substring(0, bar)));
            } catch (NumberFormatException e) {
                created = null;
            }
        }
        return new LeaseRecord("", "", null, created, -1, null, false, epoch);
    }
}
