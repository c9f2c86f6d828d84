package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.JobId;
import io.jobguard.store.ScheduleClaim;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * This node's schedule publications ({@code schedule-publish.lua}). Each still carries the node's clock lead (read by
 * nodes of earlier versions); the leads this version judges a loss by come from {@link FleetLeads}.
 */
public final class SchedulePublications {

    private static final LuaScript PUBLISH_SCHEDULE = LuaScript.load("schedule-publish");

    private final ScriptRunner scripts;
    private final KeySchema keys;
    private final LossWindows lossWindows;

    public SchedulePublications(ScriptRunner scripts, KeySchema keys, LossWindows lossWindows) {
        this.scripts = scripts;
        this.keys = keys;
        this.lossWindows = lossWindows;
    }

    /** Publishes the node's schedule of the job and returns every live node's claim ({@code FleetView#publishSchedule}). */
    public List<ScheduleClaim> publish(JobId job, String nodeId, String schedule, Duration ttl) {
        List<Object> reply = scripts.run(PUBLISH_SCHEDULE, ReturnType.MULTI, List.of(keys.of(job, JobKey.SCHEDULES)),
                List.of(nodeId, lossWindows.publication(schedule), Long.toString(Math.max(1, ttl.toMillis()))));
        List<ScheduleClaim> claims = new ArrayList<>();
        for (int i = 0; i + 2 < reply.size(); i += 3) {
            claims.add(new ScheduleClaim(ScriptRunner.text(reply.get(i)), ScriptRunner.text(reply.get(i + 2)),
                    Instant.ofEpochMilli(ScriptRunner.number(reply.get(i + 1)))));
        }
        return lossWindows.viewed(claims);
    }
}
