package io.jobguard.store;

import java.time.Duration;
import java.util.List;

/**
 * Optional store capability: sharing each node's schedule of a job, so that nodes that disagree are
 * reported ({@code io.jobguard.ScheduleAgreementMonitor}). Without it the check finds no peers and stays
 * silent. Asked through {@link LeaseStore#capability(Class)}.
 */
public interface SchedulePublishing {

    /**
     * Records that {@code nodeId} fires {@code job} on {@code schedule}, and returns what every node
     * that published within the last {@code ttl} (by the store's clock) said, this one included.
     * Claims older than {@code ttl} are forgotten, so a node that stopped publishing drops out.
     *
     * @param job      the job
     * @param nodeId   the publishing node
     * @param schedule the node's schedule description
     * @param ttl      how long a claim counts without being published again
     * @return the live claims, in no particular order
     */
    List<ScheduleClaim> publishSchedule(JobId job, String nodeId, String schedule, Duration ttl);
}
