package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The admission SPI: where run leases and fire-time markers live. Implementations must make
 * {@link #acquireRun(RunLeaseRequest)} atomic: the check of the fire-time marker, the run lease
 * and the cool-down, and the writing of lease and marker happen as one step that no other client
 * can interleave with. Leases expire by the store's own clock, never by a client's.
 *
 * <p>Every method may throw an unchecked exception when the store cannot be reached; the engine
 * turns it into {@code STORE_ERROR}.
 *
 * <p>Everything beyond admission is an optional capability a store implements only when it can answer
 * truly: {@link RunHistory} (live lease, recent fires), {@link ForceRelease}, {@link ReleaseWatching}
 * (release notifications), {@link RunRecords} (missed-fire recovery), {@link SchedulePublishing} and
 * {@link JobPauses}. Callers ask for one with {@link #capability(Class)} (the one idiom job-guard uses;
 * a store that wraps another overrides it to pass the question on) and degrade when it is absent.
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
     * Like {@link #acquireRun(RunLeaseRequest)}, with the recovery checks or the recovery kind of
     * {@code mode} (catch-up, dead-run retry), in the same single step. Stores without a run record (the default)
     * run regular attempts without checks and refuse the other kinds as
     * {@link AcquireResult.Status#SUPERSEDED}.
     *
     * @param request the attempt
     * @param mode    what the attempt is for
     * @return what happened
     */
    default AcquireResult acquireRun(RunLeaseRequest request, AcquireMode mode) {
        if (mode.kind() == AcquireMode.Kind.REGULAR) {
            return acquireRun(request);
        }
        return AcquireResult.refused(AcquireResult.Status.SUPERSEDED, null, null);
    }

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
     * {@link #releaseRun} without waiting for its reply on the caller's thread (a guarded firing then costs its
     * scheduler thread one round trip, the acquire). A store that overrides it must make this node's next
     * acquire of the job execute after the release, e.g. by writing it to the same ordered connection before
     * returning, or by having that acquire wait for a release still in flight. The default runs
     * {@link #releaseRun} at once, on the caller's thread.
     *
     * @param request  the attempt that acquired the lease
     * @param cooldown gap during which no run starts after this one (zero for none)
     * @return completes with what {@link #releaseRun} returns, or exceptionally with its failure
     */
    default CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest request, Duration cooldown) {
        try {
            return CompletableFuture.completedFuture(releaseRun(request, cooldown));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

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
     * Returns this store as an optional capability, when it has it.
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

    /**
     * Names the entry that blocks a refused attempt, for the WARN about a value job-guard did not
     * write (or one without an expiry) that keeps a job from running.
     *
     * @param request the refused attempt
     * @param status  why it was refused: ALREADY_RAN (the fire-time marker), BUSY (the run lease) or
     *                COOLDOWN (the cool-down)
     * @return the store's key, or a description of the entry
     */
    default String blockingKey(RunLeaseRequest request, AcquireResult.Status status) {
        String entry = switch (status) {
            case ALREADY_RAN -> "fire-time marker";
            case COOLDOWN -> "cool-down";
            default -> "run lease";
        };
        return "the " + entry + " of " + request.job();
    }
}
