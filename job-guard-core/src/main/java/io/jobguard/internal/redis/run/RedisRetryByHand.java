package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.RetryByHand;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Instant;
import java.util.List;

/**
 * An operator's retry of a failed fire time in the Redis store, as one atomic call of {@code run-retry-by-hand.lua}.
 * The script checks the job's state, lease and recent fire times and leaves the next attempt pending (field {@code r})
 * in the same step, so no run, release or pause can come between the checks and the write.
 */
public record RedisRetryByHand(ScriptRunner scripts, KeySchema keys) {

    private static final LuaScript RETRY_BY_HAND = LuaScript.load("run-retry-by-hand");

    public RetryByHand retry(JobId job, Instant fireTime, String nodeId, int historySize) {
        List<Object> reply = scripts.run(RETRY_BY_HAND, ReturnType.MULTI,
                List.of(keys.of(job, JobKey.STATE), keys.of(job, JobKey.RUN_LEASE), keys.of(job, JobKey.HISTORY)),
                List.of(Long.toString(fireTime.toEpochMilli()), nodeId, Integer.toString(Math.max(0, historySize))));
        if (reply == null || reply.size() != 2) {
            throw new LeaseStoreException("run-retry-by-hand.lua answered " + reply + " for " + job);
        }
        String status = ScriptRunner.text(reply.get(0));
        try {
            return new RetryByHand(RetryByHand.Status.valueOf(status), (int) ScriptRunner.number(reply.get(1)));
        } catch (IllegalArgumentException e) {
            throw new LeaseStoreException("run-retry-by-hand.lua answered " + status + " for " + job, e);
        }
    }
}
