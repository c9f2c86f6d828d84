package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The admission SPI: where run leases and fire-time markers live. {@link #acquireRun(RunLeaseRequest)} is atomic: the
 * check of the fire-time marker, the run lease and the cool-down, and the writing of lease and marker happen as one
 * step that no other client can interleave with; leases expire by the store's own clock, never by a client's.
 *
 * <p>The abstract methods are the contract every store implements. What only some stores can do is an optional
 * capability, asked for with {@link #capability(Class)}, and the engine degrades where it is absent:
 * {@link RunRecovery} (the run record: recovery of missed fire times and dead runs), {@link OutcomeRecording} (each
 * fire time's outcome on the job's history), {@link FleetView} (what the nodes publish to each other),
 * {@link RunHistory} (live lease, recent fires, for operators) and {@link OperatorControl} (force release, pause,
 * resume). A store that wraps another implements the capabilities it passes on, or overrides {@link #capability}.
 *
 * <p>Every method may throw an unchecked exception when the store cannot be reached; the engine turns it into
 * {@code STORE_ERROR}. How to add a store: docs/architecture.md, "Adding a lease store".
 */
public interface LeaseStore extends AutoCloseable {

    /**
     * Takes the run lease and the fire-time marker for one nominal fire time, unless the fire time
     * was already taken, another run holds the lease or the cool-down is active. The same owner
     * token asking again while it still holds both gets {@code ACQUIRED} with its original token.
     *
     * @param request the attempt
     * @return what happened
     */
    AcquireResult acquireRun(RunLeaseRequest request);

    /**
     * Extends the run lease (and the marker) of the request's owner token.
     *
     * @param request the attempt that acquired the lease
     * @return {@code true} if renewed, {@code false} if the lease is no longer held by this token
     */
    boolean renewRun(RunLeaseRequest request);

    /**
     * Releases the run lease if, and only if, the request's owner token still holds it; keeps the
     * fire-time marker for its retention; starts the cool-down; wakes waiters.
     *
     * @param request  the attempt that acquired the lease
     * @param cooldown gap during which no run starts after this one (zero for none)
     * @return {@code true} if released, {@code false} if the lease had been lost
     */
    boolean releaseRun(RunLeaseRequest request, Duration cooldown);

    /**
     * Registers for release notifications of a job's run lease, so that a waiting firing wakes at once. A store
     * that cannot notify returns {@link ReleaseWatch#never()}: waiting firings then poll every
     * {@code JobGuardConfig#waitPollInterval()}.
     *
     * @param job the job
     * @return a watch to await releases with; close it when done
     */
    ReleaseWatch watchRunReleases(JobId job);

    /**
     * The store's current time.
     *
     * @return the time by the store's clock
     */
    Instant serverTime();

    /**
     * Whether {@link AcquireResult#fencingToken()} carries real fencing tokens.
     *
     * @return {@code true} if the store issues fencing tokens
     */
    boolean supportsFencing();

    /**
     * Names the entry that blocks a refused attempt, for the WARN about a value job-guard did not
     * write (or one without an expiry) that keeps a job from running.
     *
     * @param request the refused attempt
     * @param status  why it was refused: ALREADY_RAN (the fire-time marker), BUSY (the run lease) or
     *                COOLDOWN (the cool-down)
     * @return the store's key, or a description of the entry
     */
    String blockingKey(RunLeaseRequest request, AcquireResult.Status status);

    /**
     * Returns this store as an optional capability ({@link RunRecovery}, {@link OutcomeRecording},
     * {@link FleetView}, {@link RunHistory} or {@link OperatorControl}), when it has it. By default the store itself
     * when it implements the capability's interface.
     *
     * @param type the capability interface, e.g. {@code RunHistory.class}
     * @param <T>  the capability
     * @return the capability, or empty when the store does not offer it
     */
    default <T> Optional<T> capability(Class<T> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
    }

    /** Releases the store's own resources (subscriptions, threads); never throws. */
    @Override
    void close();
}
