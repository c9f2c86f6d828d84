package io.jobguard.spring.actuator;

import io.jobguard.batch.BatchLocks;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the {@code jobguard} endpoint reports besides the {@code @Scheduled} jobs: contributed jobs,
 * live batch leases and locks held through ShedLock. Every supplier is asked on each read, so
 * beans created late (the lazy batch locks) are seen.
 *
 * @param contributors    the contributors of other guarded jobs
 * @param batchNamespaces the batch namespaces whose live leases to list
 * @param batchLocks      the batch locks (null when the application has none)
 * @param heldLocks       the locks held through a job-guard ShedLock provider (empty when none)
 */
public record EndpointSources(Supplier<List<GuardedJobsContributor>> contributors,
                              Supplier<Set<String>> batchNamespaces, Supplier<BatchLocks> batchLocks,
                              Supplier<List<HeldLock>> heldLocks) {

    /**
     * No extra sources.
     *
     * @return sources that report nothing
     */
    public static EndpointSources none() {
        return new EndpointSources(List::of, Set::of, () -> null, List::of);
    }

    /**
     * A lock held by this node through job-guard's ShedLock provider.
     *
     * @param name             the ShedLock lock name
     * @param node             this node
     * @param lockedAt         when it was taken or extended
     * @param lockAtMostUntil  when it expires if not unlocked
     * @param lockAtLeastUntil before when an unlock keeps it
     */
    public record HeldLock(String name, String node, Instant lockedAt, Instant lockAtMostUntil,
                           Instant lockAtLeastUntil) {
    }
}
