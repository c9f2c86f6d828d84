package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.JobId;
import io.jobguard.store.ScheduleClaim;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's schedule publications ({@code schedule-publish.lua}): each carries the node's clock lead, and
 * each reply is a view of the fleet for {@link LossWindows}. The last publication of each job is kept, so
 * that after a loss of the job's history the store can publish it again at once (when the node learns of
 * the loss, and before each acquisition until its window is measured) instead of at the next scheduled check.
 */
final class SchedulePublications {

    private static final LuaScript PUBLISH_SCHEDULE = LuaScript.load("schedule-publish");

    private final ScriptRunner scripts;
    private final KeySchema keys;
    private final LossWindows lossWindows;
    private final Map<JobId, Publication> last = new ConcurrentHashMap<>();

    private record Publication(String nodeId, String schedule, Duration ttl) {
    }

    SchedulePublications(ScriptRunner scripts, KeySchema keys, LossWindows lossWindows) {
        this.scripts = scripts;
        this.keys = keys;
        this.lossWindows = lossWindows;
    }

    /** Publishes the node's schedule of the job and returns every live node's claim (see {@code SchedulePublishing}). */
    List<ScheduleClaim> publish(JobId job, String nodeId, String schedule, Duration ttl) {
        List<Object> reply = scripts.run(PUBLISH_SCHEDULE, ReturnType.MULTI, List.of(keys.of(job, JobKey.SCHEDULES)),
                List.of(nodeId, lossWindows.publication(schedule), Long.toString(Math.max(1, ttl.toMillis()))));
        last.put(job, new Publication(nodeId, schedule, ttl));
        List<ScheduleClaim> claims = new ArrayList<>();
        for (int i = 0; i + 2 < reply.size(); i += 3) {
            claims.add(new ScheduleClaim(ScriptRunner.text(reply.get(i)), ScriptRunner.text(reply.get(i + 2)),
                    Instant.ofEpochMilli(ScriptRunner.number(reply.get(i + 1)))));
        }
        return lossWindows.viewed(job, nodeId, claims, ttl);
    }

    /**
     * Publishes the job's last publication again, if this node published one; a failure is left to the next
     * scheduled check (the acquisition that follows reports a Redis that is down).
     */
    void republish(JobId job) {
        Publication publication = last.get(job);
        if (publication == null) {
            return;
        }
        try {
            publish(job, publication.nodeId(), publication.schedule(), publication.ttl());
        } catch (RuntimeException e) {
            // the measured window waits for the next view; the configured one applies meanwhile
        }
    }
}
