package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * <p>What the engine uses on the firing path beyond admission (release with outcome, outcomes decided
 * without a run, release notifications, the run record, schedule publishing) are default methods with a safe
 * fallback: a store overrides those it can answer truly, and each default says what a store that does not override it
 * loses. A store that wraps another overrides them too, to pass them on.
 *
 * <p>What only operators read or do is one of two optional capabilities, implemented only by a store that
 * can answer cluster-wide: {@link RunHistory} (live lease, recent fires, fire history) and
 * {@link OperatorControl} (force release, pause, resume). Callers ask for one with {@link #capability(Class)}
 * (a store that wraps another overrides it to pass the question on) and degrade when it is absent.
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
     * {@link #releaseRunAsync(RunLeaseRequest, Duration)} that also records the run's outcome and duration on
     * the fire time's history entry, in the same call; the engine releases a run only through this method (it is
     * asynchronous only, because the engine never releases a run synchronously). By default the plain release:
     * a store that does not override it records no outcome or duration for runs ({@link RunHistory#fireHistory} shows none).
     *
     * @param request  the attempt that acquired the lease
     * @param cooldown gap during which no run starts after this one (zero for none)
     * @param outcome  how the run ended (e.g. {@code RAN}, {@code FAILED})
     * @param runTime  how long the body ran
     * @return completes with whether the lease was released, or exceptionally with the failure
     */
    default CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest request, Duration cooldown, String outcome,
                                                     Duration runTime) {
        return releaseRunAsync(request, cooldown);
    }

    /**
     * Records a fire time decided without a run ({@code MISSED}, {@code ABANDONED}, {@code PAUSED},
     * {@code HISTORY_LOST}, ...) on the job's history, unless the same outcome is already recorded for that fire
     * time (every node that refuses a paused fire time reports it; one entry is kept). By default nothing: a store
     * that does not override it shows no fire times decided without a run.
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param nodeId          the node that decided
     * @param outcome         the outcome (e.g. {@code MISSED})
     * @param historySize     how many entries the job keeps
     */
    default void recordOutcome(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize) {
        // a store without a fire history has nowhere to keep it
    }

    /**
     * Registers for release notifications of a job's run lease, so that a waiting firing wakes at once. By
     * default a watch that never signals and sleeps the whole wait: a store that does not override it makes waiting firings
     * poll every {@code JobGuardConfig#waitPollInterval()}, so a release is seen up to one interval late.
     *
     * @param job the job
     * @return a watch to await releases with; close it when done
     */
    default ReleaseWatch watchRunReleases(JobId job) {
        return new ReleaseWatch() {
            @Override
            public boolean await(Duration max) throws InterruptedException {
                Thread.sleep(max.toMillis(), (int) (max.toNanos() % 1_000_000L));
                return false;
            }

            @Override
            public void close() {
                // nothing was registered
            }
        };
    }

    /**
     * The job's run record, which the recovery of missed fire times and dead runs reads. By default empty: a
     * store that does not override it recovers nothing (and its {@link #acquireRun(RunLeaseRequest, AcquireMode)} refuses
     * recovery attempts anyway).
     *
     * @param job the job
     * @return the record, or empty if the job has none
     */
    default Optional<RunRecord> runRecord(JobId job) {
        return Optional.empty();
    }

    /**
     * The latest fire time that every live node of the fleet whose schedule runs later than this node's (its clock
     * lags) has already fired, as far as the store knows; a later fire time the job's record shows unhandled may
     * still be fired on time by such a node: it is due, not missed, and the recovery of missed fire times runs it
     * instead of reporting it. By default empty: the store knows of no node that fires later (every node's clock is
     * taken to agree with this one's).
     *
     * @return the fire time, or empty when no live node is known to fire later than this one
     */
    default Optional<Instant> reachedByLaterNodes() {
        return Optional.empty();
    }

    /**
     * Records that {@code nodeId} fires {@code job} on {@code schedule}, and returns what every node that
     * published within the last {@code ttl} (by the store's clock) said, this one included; claims older than
     * {@code ttl} are forgotten, so a node that stopped publishing drops out. By default nothing is shared and the
     * answer is empty: with a store that does not override it, nodes that fire a job on different schedules are not reported
     * ({@code io.jobguard.monitor.ScheduleAgreementMonitor} finds no peers).
     *
     * @param job      the job
     * @param nodeId   the publishing node
     * @param schedule the node's schedule description
     * @param ttl      how long a claim counts without being published again
     * @return the live claims, in no particular order
     */
    default List<ScheduleClaim> publishSchedule(JobId job, String nodeId, String schedule, Duration ttl) {
        return List.of();
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
     * Returns this store as an optional capability ({@link RunHistory} or {@link OperatorControl}), when it has it.
     *
     * @param type the capability interface, e.g. {@code RunHistory.class}
     * @param <T>  the capability
     * @return the capability, or empty when the store does not offer it
     */
    default <T> Optional<T> capability(Class<T> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
    }

    /**
     * Called when the engine's admission has closed for a graceful shutdown ({@code JobGuard.handOverLeases}, and
     * {@code JobGuard.close}), while the store's connections still work: a store tells the fleet what it must know of
     * this node before it goes. It may be called more than once. By default nothing. Never throws.
     */
    default void admissionClosed() {
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
