package io.jobguard.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that stands still until a test moves it: every reader sees the instant last {@link #set} or
 * reached by {@link #advance}, on every thread. Inject it where an engine or store reads the time (never install it
 * statically). Thread-safe.
 *
 * <p>The engine decides when a lease is lost by its own monotonic clock, never by this one: moving this clock changes
 * what the store reports as its time, acquisition times and the history-loss window, not how long a lease lives.
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /**
     * A clock standing at {@code start}, in UTC.
     *
     * @param start the first instant it tells
     * @return the clock
     * @throws NullPointerException if {@code start} is null
     */
    public static MutableClock at(Instant start) {
        return new MutableClock(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
    }

    /**
     * Moves the clock to {@code instant}, forwards or back.
     *
     * @param instant what the clock tells from now on
     * @return this clock
     * @throws NullPointerException if {@code instant} is null
     */
    public MutableClock set(Instant instant) {
        now.set(Objects.requireNonNull(instant, "instant"));
        return this;
    }

    /**
     * Moves the clock forwards by {@code amount}.
     *
     * @param amount how far, zero or positive
     * @return this clock
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public MutableClock advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("a clock advances by zero or more, got " + amount);
        }
        now.updateAndGet(t -> t.plus(amount));
        return this;
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** {@inheritDoc} The copy shares this clock's instant: moving one moves both. */
    @Override
    public Clock withZone(ZoneId zone) {
        return zone.equals(this.zone) ? this : new MutableClock(now, zone);
    }

    @Override
    public String toString() {
        return "MutableClock[" + now.get() + ", " + zone + "]";
    }
}
