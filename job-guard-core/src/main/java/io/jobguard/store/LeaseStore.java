package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where run leases and fire-time markers live. Implementations must make
 * {@link #acquireRun(RunLeaseRequest)} atomic: the check of the fire-time marker, the run lease
 * and the cool-down, and the writing of lease and marker happen as one step that no other client
 * can interleave with. Leases expire by the store's own clock, never by a client's.
 *
 * <p>Every method may throw an unchecked exception when the store cannot be reached; the engine
 * turns it into {@code STORE_ERROR}.
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
     * {@code mode} (issue 15), in the same single step. Stores without a run record (the default)
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
     * The job's run record (issue 15), if the store keeps one.
     *
     * @param job the job
     * @return the record, or empty if there is none or the store keeps none (the default)
     */
    default Optional<RunRecord> runRecord(JobId job) {
        return Optional.empty();
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
     * Registers for release notifications of a job's run lease.
     *
     * @param job the job
     * @return a watch to await releases with; close it when done
     */
    ReleaseWatch watchRunReleases(JobId job);

    /**
     * The live run lease of a job, cluster-wide.
     *
     * @param job the job
     * @return the lease, or empty if none is held
     */
    Optional<LeaseRecord> currentRunLease(JobId job);

    /**
     * The most recent fire times taken for a job, newest first.
     *
     * @param job the job
     * @param max the most entries to return
     * @return the entries
     */
    List<LeaseRecord> recentFires(JobId job, int max);

    /**
     * Deletes a job's run lease whoever holds it (an operator's escape hatch for a stuck lease).
     *
     * @param job the job
     * @return {@code true} if a lease was deleted
     */
    boolean forceReleaseRun(JobId job);

    /**
     * The store's current time.
     *
     * @return the time by the store's clock
     */
    Instant serverTime();

    /**
     * Records that {@code nodeId} fires {@code job} on {@code schedule}, and returns what every node
     * that published within the last {@code ttl} (by the store's clock) said, this one included.
     * Claims older than {@code ttl} are forgotten, so a node that stopped publishing drops out.
     *
     * <p>Stores that cannot share this between nodes return an empty list (the default): the
     * schedule check then finds no peers and stays silent.
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
     * Whether {@link AcquireResult#fencingToken()} carries real fencing tokens.
     *
     * @return {@code true} if the store issues fencing tokens
     */
    boolean supportsFencing();

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
