package io.jobguard.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What one node said about a job's schedule: the schedule it fires the job on, and when it last said so
 * by the store's clock. The schedule is in the words of the node's scheduler adapter (for example
 * {@code cron "0 0 2 * * *" (Europe/Berlin)}).
 *
 * @param nodeId      the node that published the schedule
 * @param schedule    the schedule's description; two nodes agree when these are equal
 * @param publishedAt when the node last published it, by the store's clock
 */
public record ScheduleClaim(String nodeId, String schedule, Instant publishedAt) {

    /**
     * Checks every part.
     *
     * @throws NullPointerException if a part is null
     */
    public ScheduleClaim {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(publishedAt, "publishedAt");
    }
}
