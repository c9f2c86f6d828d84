package io.jobguard.internal.redis.fleet;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The largest value recorded within a sliding horizon: a deque of (time, value) pairs, each smaller than the one
 * before it, so adding and reading cost amortized constant time. Thread-safe.
 */
public final class RecentMaximum {

    private final Deque<long[]> values = new ArrayDeque<>();

    /** Records {@code value} at {@code at}; an earlier value no larger than it can never be the maximum again. */
    public synchronized void add(long at, long value) {
        while (!values.isEmpty() && values.peekLast()[1] <= value) {
            values.pollLast();
        }
        values.addLast(new long[] {at, value});
    }

    /**
     * The largest value recorded at or after {@code now - horizon}, or {@code none} when there is none; values older
     * than that are dropped.
     */
    public synchronized long max(long now, long horizon, long none) {
        while (!values.isEmpty() && values.peekFirst()[0] < now - horizon) {
            values.pollFirst();
        }
        return values.isEmpty() ? none : values.peekFirst()[1];
    }
}
