package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Optional store capability: what the nodes of a fleet publish to each other through the store. With it, a node whose
 * clock leads runs the fire times a lagging node has not reached instead of reporting them missed, and nodes that
 * fire a job on different schedules are reported. Asked through {@link LeaseStore#capability(Class)}. Without it every
 * node's clock is taken to agree with this one's and the schedule check finds no peers.
 */
public interface FleetView {

    /**
     * The latest fire time that every live node of the fleet whose schedule runs later than this node's (its clock
     * lags) has already fired, as far as the store knows; a later fire time the job's record shows unhandled may
     * still be fired on time by such a node: it is due, not missed.
     *
     * @return the fire time, or empty when no live node is known to fire later than this one
     */
    Optional<Instant> reachedByLaterNodes();

    /**
     * Records that {@code nodeId} fires {@code job} on {@code schedule}, and returns what every node that published
     * within the last {@code ttl} (by the store's clock) said, this one included; claims older than {@code ttl} are
     * forgotten, so a node that stopped publishing drops out.
     *
     * @param job      the job
     * @param nodeId   the publishing node
     * @param schedule the node's schedule description
     * @param ttl      how long a claim counts without being published again
     * @return the live claims, in no particular order
     */
    List<ScheduleClaim> publishSchedule(JobId job, String nodeId, String schedule, Duration ttl);

    /**
     * Called when the engine's admission has closed for a graceful shutdown, while the store's connections still
     * work: the store tells the fleet what it must know of this node before it goes. It may be called more than once.
     * Never throws.
     */
    void admissionClosed();
}
