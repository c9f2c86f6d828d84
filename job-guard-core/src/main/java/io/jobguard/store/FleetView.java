package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

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

    /**
     * Joins {@code nodeId} to the fleet's regular publications: at each of them the store publishes what
     * {@code publication} returns (a text without {@code '|'}) beside the node's clock, and hands every live node's
     * publication to {@code viewer} after the read, on the store's own thread or on a firing's that publishes at once; two
     * reads may reach {@code viewer} out of order (each carries its {@link FleetMembers#readAt()}). A store without such publications keeps
     * the default, which joins nothing: every node then asks for every fire time.
     *
     * @param nodeId      the node
     * @param publication what the node publishes, read at each publication
     * @param viewer      receives each read of the fleet
     * @return whether the store publishes and reads members
     */
    default boolean joinFleet(String nodeId, Supplier<String> publication, Consumer<FleetMembers> viewer) {
        return false;
    }

    /**
     * Notes a regular fire time that this node fired and left to the node assigned to it: the node's lateness is
     * measured from every fire time it fires, asked for or not.
     *
     * @param nominalFireTime the fire time
     */
    default void firedWithoutAsking(Instant nominalFireTime) {
    }
}
