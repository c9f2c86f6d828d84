package io.jobguard.internal.redis.fleet;

import io.jobguard.internal.redis.loss.LossWindows;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How late each live node of the fleet fires. A node's lateness is Redis' clock at its regular asks minus the fire
 * time asked for, the smallest over the last {@value #HORIZON_MILLIS} ms: how far its scheduler's clock lags Redis'
 * (negative when it leads), which one firing delayed by a busy scheduler does not change; without a recent ask, how
 * far its wall clock lags Redis'. {@link FleetLeads} publishes it with the node's clock lead and reads everybody's
 * back. A fire time after {@link #reachedByLaterNodes} has not yet been fired by some live node whose clock lags this
 * one's: a firing here that finds it unhandled finds it due, not missed. Thread-safe.
 */
final class FleetLateness {

    /** How long one ask's lateness counts. */
    static final long HORIZON_MILLIS = 60_000;

    /** The negated lateness of this node's asks: their largest is the smallest lateness. */
    private final RecentMaximum asks = new RecentMaximum();
    /** Per node: {published at, lateness}, both in Redis millis, as last read. */
    private final Map<String, long[]> fleet = new ConcurrentHashMap<>();

    /** Records one of this node's regular asks: the fire time and Redis' clock at the ask. */
    void asked(long nominalFireTimeMillis, long redisNow) {
        asks.add(redisNow, nominalFireTimeMillis - redisNow);
    }

    /** This node's lateness: its asks' smallest over the horizon, else its wall clock's lag behind Redis'. */
    long own(long redisNow, long offsetMillis) {
        long negated = asks.max(redisNow, HORIZON_MILLIS, Long.MIN_VALUE);
        return negated == Long.MIN_VALUE ? -offsetMillis : -negated;
    }

    /** Records a node's published lateness, read at Redis time {@code at}. */
    void viewed(String node, long at, long lateness) {
        fleet.merge(node, new long[] {at, lateness}, (old, now) -> now[0] >= old[0] ? now : old);
    }

    /**
     * The latest fire time (Redis millis) that every live node firing later than this one has reached: Redis' clock
     * less the largest such lateness and {@link LossWindows#MARGIN_MILLIS} (jitter, and the ask's way to Redis);
     * {@link Long#MAX_VALUE} when no live node fires later than this one.
     *
     * @param own         this node's ids
     * @param redisNow    Redis' clock now, as this node estimates it
     * @param ownLateness this node's lateness
     * @param liveMillis  how recent a publication must be for its node to count as live
     */
    long reachedByLaterNodes(Set<String> own, long redisNow, long ownLateness, long liveMillis) {
        long reached = Long.MAX_VALUE;
        for (Map.Entry<String, long[]> e : fleet.entrySet()) {
            long[] published = e.getValue();
            if (!own.contains(e.getKey()) && published[0] >= redisNow - liveMillis && published[1] > ownLateness) {
                reached = Math.min(reached, redisNow - published[1] - LossWindows.MARGIN_MILLIS);
            }
        }
        fleet.values().removeIf(published -> published[0] < redisNow - HORIZON_MILLIS);
        return reached;
    }
}
