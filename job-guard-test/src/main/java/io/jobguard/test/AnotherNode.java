package io.jobguard.test;

import io.jobguard.store.AcquireResult;
import io.jobguard.store.RunLeaseRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Another node of the cluster, simulated in a {@link SimulatedLeaseStore}, which the engine under test meets the way it
 * meets a real node. It takes fire times and run leases through the store's own acquire and release, as a node running
 * the same job would (the fire time taken: {@code ALREADY_RAN}; the lease held: {@code BUSY}).
 */
public final class AnotherNode {

    /** The lease of a simulated run: long enough that it never expires during a test. */
    private static final Duration LEASE = Duration.ofDays(1);
    private static final Duration RETENTION = Duration.ofDays(365);
    private static final int HISTORY_SIZE = 1_000;

    private final SimulatedLeaseStore store;
    private final String nodeId;

    AnotherNode(SimulatedLeaseStore store, String nodeId) {
        this.store = store;
        this.nodeId = nodeId;
    }

    /**
     * The node's id.
     *
     * @return the id
     */
    public String nodeId() {
        return nodeId;
    }

    /**
     * Records that this node ran {@code job} for {@code nominalFireTime} and finished ({@code RAN} in the history):
     * the fire time is taken, so a firing of it on any other node is refused {@code ALREADY_RAN}.
     *
     * @param job             the job name
     * @param nominalFireTime the fire time
     * @return this node
     * @throws IllegalStateException naming the status when the store refuses the fire time (already taken, the lease
     *                               held, the history lost)
     */
    public AnotherNode ran(String job, Instant nominalFireTime) {
        RunLeaseRequest request = take(job, nominalFireTime);
        store.release(request, Duration.ZERO, "RAN", Duration.ZERO);
        return this;
    }

    /**
     * Starts a run of {@code job} for {@code nominalFireTime} on this node that holds the job's run lease until
     * {@link HeldLease#release()}: a firing of another fire time meanwhile is refused {@code BUSY} (after its busy
     * grace, or waits up to {@code waitFor} for a WAIT job), a firing of the same fire time {@code ALREADY_RAN}.
     *
     * @param job             the job name
     * @param nominalFireTime the fire time the held run is for
     * @return the held lease
     * @throws IllegalStateException naming the status when the store refuses the lease
     */
    public HeldLease holdsLease(String job, Instant nominalFireTime) {
        RunLeaseRequest request = take(job, nominalFireTime);
        return () -> store.release(request, Duration.ZERO, "RAN", Duration.ZERO);
    }

    private RunLeaseRequest take(String job, Instant nominalFireTime) {
        RunLeaseRequest request = new RunLeaseRequest(store.jobId(job), Objects.requireNonNull(nominalFireTime,
                "nominalFireTime"), nodeId + "-" + UUID.randomUUID(), nodeId, LEASE, RETENTION, HISTORY_SIZE);
        AcquireResult result = store.acquire(request);
        if (result.status() != AcquireResult.Status.ACQUIRED) {
            throw new IllegalStateException("simulated node '" + nodeId + "' cannot take job '" + job + "' T="
                    + nominalFireTime + ": the store answered " + result.status());
        }
        return request;
    }

    /** A run lease a simulated node holds. */
    @FunctionalInterface
    public interface HeldLease {
        /**
         * Ends the simulated run: releases its lease (waking the firings that wait for it) and records it {@code RAN};
         * its fire time stays taken.
         *
         * @return {@code true} if the lease was still held (not lost by {@link SimulatedLeaseStore#loseLease})
         */
        boolean release();
    }
}
