package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One attempt to take, renew or release the run lease of a job for one nominal fire time.
 *
 * @param job             the job
 * @param nominalFireTime the fire time the schedule designated (not the node's "now")
 * @param ownerToken      unique per attempt; only the holder of this token may renew or release
 * @param nodeId          the node making the attempt, recorded for observers
 * @param lease           how long the lease lives without renewal
 * @param markerRetention how long the fire-time marker outlives the end of the run; at least the
 *                        skew tolerance, so late nodes still see that the fire time was taken
 * @param historySize     how many recent fire times the store keeps for the job
 * @param historyLossWindow after the store lost the job's history, fire times earlier than the
 *                        loss's detection plus this window may have run before it and are refused
 *                        ({@link AcquireResult.Status#HISTORY_LOST}); at least the largest clock
 *                        skew between nodes (the engine passes its skew tolerance)
 * @param historyRetention how long the job's history entries are kept, by fire time; zero for no age limit (the
 *                         entries are then kept by count only)
 */
public record RunLeaseRequest(JobId job, Instant nominalFireTime, String ownerToken, String nodeId,
                              Duration lease, Duration markerRetention, int historySize,
                              Duration historyLossWindow, Duration historyRetention) {

    /**
     * A request whose history entries are kept by count only.
     *
     * @param job               the job
     * @param nominalFireTime   the fire time the schedule designated
     * @param ownerToken        unique per attempt
     * @param nodeId            the node making the attempt
     * @param lease             how long the lease lives without renewal
     * @param markerRetention   how long the fire-time marker outlives the end of the run
     * @param historySize       how many recent fire times the store keeps for the job
     * @param historyLossWindow the history-loss window
     * @throws NullPointerException     if a part is null
     * @throws IllegalArgumentException if the lease is not positive
     */
    public RunLeaseRequest(JobId job, Instant nominalFireTime, String ownerToken, String nodeId,
                           Duration lease, Duration markerRetention, int historySize, Duration historyLossWindow) {
        this(job, nominalFireTime, ownerToken, nodeId, lease, markerRetention, historySize, historyLossWindow,
                Duration.ZERO);
    }

    /**
     * A request whose history-loss window is the marker retention.
     *
     * @param job             the job
     * @param nominalFireTime the fire time the schedule designated
     * @param ownerToken      unique per attempt
     * @param nodeId          the node making the attempt
     * @param lease           how long the lease lives without renewal
     * @param markerRetention how long the fire-time marker outlives the end of the run
     * @param historySize     how many recent fire times the store keeps for the job
     * @throws NullPointerException     if a part is null
     * @throws IllegalArgumentException if the lease is not positive
     */
    public RunLeaseRequest(JobId job, Instant nominalFireTime, String ownerToken, String nodeId,
                           Duration lease, Duration markerRetention, int historySize) {
        this(job, nominalFireTime, ownerToken, nodeId, lease, markerRetention, historySize, markerRetention);
    }

    /**
     * Checks the request.
     *
     * @throws NullPointerException     if a part is null
     * @throws IllegalArgumentException if the lease is not positive or the history retention negative
     */
    public RunLeaseRequest {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(nominalFireTime, "nominalFireTime");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(markerRetention, "markerRetention");
        Objects.requireNonNull(historyLossWindow, "historyLossWindow");
        Objects.requireNonNull(historyRetention, "historyRetention");
        if (historyRetention.isNegative()) {
            throw new IllegalArgumentException("historyRetention must not be negative, got " + historyRetention);
        }
        if (lease == null || lease.isZero() || lease.isNegative()) {
            throw new IllegalArgumentException("lease must be positive, got " + lease);
        }
    }

    /**
     * How long the fire-time marker lives while the run holds the lease.
     *
     * @return lease plus marker retention
     */
    public Duration markerTtl() {
        return lease.plus(markerRetention);
    }
}
