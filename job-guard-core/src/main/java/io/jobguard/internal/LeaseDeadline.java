package io.jobguard.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * How long this node may still believe it holds a lease, by its own monotonic clock.
 *
 * <p>The deadline is the SEND time of the last successful acquire or renewal plus the lease, minus a
 * {@linkplain #margin(Duration) margin}. Counting from the send time (not the reply) is on the safe side:
 * the store started the lease's TTL no earlier than it received the command, so the store cannot expire
 * the lease before this node's deadline, however long the reply took. The margin absorbs a store clock
 * that runs a little faster than this node's.
 *
 * <p>Once the deadline has passed the lease counts as lost for good: a renewal whose reply arrives late
 * does not bring it back, because the run may already have seen it lost and another node may hold it.
 * Thread-safe.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class LeaseDeadline {

    private static final long MAX_MARGIN_NANOS = Duration.ofSeconds(1).toNanos();

    private final LongSupplier ticker;
    private final long validNanos;
    private final AtomicBoolean lost = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile long deadline;

    private LeaseDeadline(LongSupplier ticker, long sentNanos, Duration lease) {
        this.ticker = ticker;
        long leaseNanos = lease.toNanos();
        this.validNanos = leaseNanos - margin(lease).toNanos();
        this.deadline = sentNanos + validNanos;
    }

    /**
     * A deadline for a lease acquired by a command sent at {@code sentNanos}.
     *
     * @param sentNanos the {@link System#nanoTime()} at which the acquire command was sent
     * @param lease     the lease's duration
     * @return the deadline
     */
    public static LeaseDeadline startingAt(long sentNanos, Duration lease) {
        return startingAt(sentNanos, lease, System::nanoTime);
    }

    /**
     * A deadline read with another monotonic ticker (tests).
     *
     * @param sentNanos when the acquire command was sent, by {@code ticker}
     * @param lease     the lease's duration
     * @param ticker    a monotonic nanosecond clock
     * @return the deadline
     */
    public static LeaseDeadline startingAt(long sentNanos, Duration lease, LongSupplier ticker) {
        return new LeaseDeadline(ticker, sentNanos, lease);
    }

    /**
     * The safety margin taken off a lease: a tenth of it, at most one second.
     *
     * @param lease the lease's duration
     * @return the margin
     */
    public static Duration margin(Duration lease) {
        return Duration.ofNanos(Math.min(lease.toNanos() / 10, MAX_MARGIN_NANOS));
    }

    /**
     * The current ticker reading, for callers that record a send time.
     *
     * @return the ticker's now
     */
    public long now() {
        return ticker.getAsLong();
    }

    /**
     * Moves the deadline after a successful renewal sent at {@code sentNanos}, unless the lease is lost
     * already or its deadline passed before this call.
     *
     * @param sentNanos when the renewal command was sent
     * @return {@code true} if the lease is still held (the deadline moved or stayed), {@code false} if it was
     *         lost before the renewal's reply arrived
     */
    public synchronized boolean extendFrom(long sentNanos) {
        if (isLost()) {
            lost.set(true);
            return false;
        }
        long candidate = sentNanos + validNanos;
        if (candidate - deadline > 0) {
            deadline = candidate;
        }
        return true;
    }

    /**
     * Whether the lease is lost: flagged lost, or its deadline has passed.
     *
     * @return {@code true} once the node must no longer count on the lease
     */
    public boolean isLost() {
        return lost.get() || ticker.getAsLong() - deadline >= 0;
    }

    /**
     * Nanoseconds until the deadline; zero or negative once it has passed.
     *
     * @return the time left
     */
    public long nanosLeft() {
        return lost.get() ? 0 : deadline - ticker.getAsLong();
    }

    @Override
    public String toString() {
        return "LeaseDeadline[lost=" + isLost() + ", left " + (deadline - ticker.getAsLong()) / 1_000_000 + " ms]";
    }

    /**
     * Flags the lease lost.
     *
     * @return {@code true} for the first call only, so that the loss is reported once
     */
    public boolean markLost() {
        lost.set(true);
        return reported.compareAndSet(false, true);
    }
}
