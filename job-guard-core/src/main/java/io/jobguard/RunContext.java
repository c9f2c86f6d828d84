package io.jobguard;

import io.jobguard.internal.engine.EnginePermit;

import java.time.Instant;
import java.util.Optional;

/**
 * What a running guarded job can know about its lease: the fire time it runs for, its fencing
 * token, and whether the lease was lost while it ran. Pass the fencing token to the systems you write to, so they can
 * refuse a stale writer.
 */
public interface RunContext {

    /**
     * The context of the guarded run on the current thread.
     *
     * @return the context, or empty when the current thread is not running a guarded job
     */
    static Optional<RunContext> current() {
        return Optional.ofNullable(EnginePermit.current());
    }

    /**
     * Returns the job's name.
     *
     * @return the job name
     */
    String job();

    /**
     * Returns the nominal fire time this run was admitted for.
     *
     * @return the fire time the schedule designated
     */
    Instant nominalFireTime();

    /**
     * Returns the fencing token: strictly greater for every successful acquisition of this job.
     *
     * @return the fencing token, or -1 when the store has none or the run is unguarded
     */
    long fencingToken();

    /**
     * Tells whether the lease was lost: renewal failed or another holder took over. Once true it
     * stays true; a run that sees it should stop writing.
     *
     * <p>Answered at once from the lease's local deadline: the send time of the last successful
     * acquire or renewal (by this node's monotonic clock) plus the lease, minus a safety margin (a tenth
     * of the lease, at most one second). It turns true no later than the store can expire the lease,
     * even while the keep-alive is stuck on a stalled connection.
     *
     * @return {@code true} if exclusivity is no longer guaranteed
     */
    boolean isLeaseLost();

    /**
     * Throws if the lease is lost; call it before each step that must not run twice (a write, a
     * commit, a message send). A passed check is no promise for later: a pause right after it can
     * outlast the lease, which is why writes should also be fenced with {@link #fencingToken()}.
     *
     * @throws LeaseLostException if {@link #isLeaseLost()} is true
     */
    default void checkLease() {
        if (isLeaseLost()) {
            throw LeaseLostException.of(this, "work after the lease deadline");
        }
    }

    /**
     * Tells whether the run holds a lease at all ({@code false} only for runs admitted without one
     * under {@link StoreFailurePolicy#RUN}).
     *
     * @return {@code true} if guarded
     */
    boolean isGuarded();

    /**
     * Tells whether this run is a retry: the fire time's earlier attempt started and never
     * completed (its node died or lost the lease), and the job's delivery is
     * {@link Delivery#AT_LEAST_ONCE}. A retry has a higher fencing token than the attempt it repeats.
     *
     * @return {@code true} for a retry
     */
    default boolean isRetry() {
        return false;
    }

    /**
     * Tells whether this run is the late run of a fire time nobody started ({@link MisfirePolicy}).
     *
     * @return {@code true} for a catch-up
     */
    default boolean isCatchUp() {
        return false;
    }

    /**
     * Returns the attempt number of this fire time: 1 for its first run, 2 for its first retry.
     *
     * @return the attempt, from 1
     */
    default int attempt() {
        return 1;
    }
}
