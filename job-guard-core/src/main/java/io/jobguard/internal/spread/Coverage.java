package io.jobguard.internal.spread;

import io.jobguard.FireTimeSchedule;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this node knows to be decided of each job's fire times, and from it the coverage it publishes: the latest
 * fire time {@code W} such that every fire time from this node's start through {@code W} of every job assigned to it
 * was decided by the store (asked for by this node, or by a node whose coverage this node read). A fire time this
 * node asked for and could not get an answer to (the store failed) holds the coverage below it for longer than any
 * other node waits before it takes the fire time over.
 */
final class Coverage {

    private final long holdMillis;

    private final Map<String, Long> lastDecided = new ConcurrentHashMap<>();
    /** Per job: the earliest fire time asked for without an answer, and until when (nanos) it holds the coverage. */
    private final Map<String, long[]> unanswered = new ConcurrentHashMap<>();

    /** @param holdMillis how long a fire time asked for without an answer holds the coverage below it */
    Coverage(long holdMillis) {
        this.holdMillis = holdMillis;
    }

    /**
     * Records that the store decided the job's fire time (granted or refused, by this node or another). When
     * {@code settlesEarlier} (a grant, or a refusal because it was granted: the store grants a fire time only once the
     * one before it was handled), every earlier fire time is decided too, so an unanswered one no longer holds the
     * coverage.
     */
    void decided(String job, long fireTime, boolean settlesEarlier) {
        lastDecided.merge(job, fireTime, Math::max);
        unanswered.computeIfPresent(job, (j, hole) -> hole[0] == fireTime || (settlesEarlier && hole[0] <= fireTime)
                ? null : hole);
    }

    /** The latest fire time of the job this node saw decided (epoch millis), {@link Long#MIN_VALUE} when none. */
    long lastDecided(String job) {
        return lastDecided.getOrDefault(job, Long.MIN_VALUE);
    }

    /** Records a fire time this node asked for and got no answer to: the store may not have decided it. */
    void unanswered(String job, long fireTime) {
        long until = System.nanoTime() + holdMillis * 1_000_000L;
        unanswered.merge(job, new long[] {fireTime, until},
                (old, now) -> old[1] - System.nanoTime() > 0 && old[0] <= now[0] ? new long[] {old[0], now[1]} : now);
    }

    /**
     * The coverage of one job: the latest fire time through which every fire time from {@code from} is decided.
     *
     * @param job      the job
     * @param schedule its grid
     * @param from     this node's first fire time it answers for (epoch millis)
     * @return the coverage (epoch millis), {@link Long#MAX_VALUE} when the grid has no later fire time
     */
    long coveredThrough(String job, FireTimeSchedule schedule, long from) {
        long decided = Math.max(lastDecided.getOrDefault(job, Long.MIN_VALUE), from - 1);
        Instant next = schedule.next(Instant.ofEpochMilli(decided));
        long covered = next == null ? Long.MAX_VALUE : next.toEpochMilli() - 1;
        long[] hole = unanswered.get(job);
        if (hole != null) {
            if (hole[1] - System.nanoTime() > 0) {
                covered = Math.min(covered, hole[0] - 1);
            } else {
                unanswered.remove(job, hole);
            }
        }
        return covered;
    }
}
