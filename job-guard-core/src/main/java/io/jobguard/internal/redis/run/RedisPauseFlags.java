package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.JobId;
import io.jobguard.store.OperatorControl;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The pause flags of the Redis store: field {@code p} of the job's state hash, read by {@code run-acquire.lua} in the
 * same {@code HMGET} as the rest of the job's state. Value {@code '<paused-at millis>|<node>|<by>'}, no TTL: a pause lasts
 * until an operator resumes the job (a lost flag, e.g. after a restart without persistence, resumes it).
 */
public record RedisPauseFlags(ScriptRunner scripts, KeySchema keys) {

    /** The state hash's field of the pause flag. */
    private static final String FIELD = "p";

    public boolean pause(JobId job, String nodeId, String by) {
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            Long now = c.serverCommands().time(TimeUnit.MILLISECONDS);
            String value = (now == null ? 0 : now) + "|" + nodeId + "|" + by.replace('|', '/');
            Boolean set = c.hashCommands().hSetNX(bytes(keys.of(job, JobKey.STATE)), bytes(FIELD), bytes(value));
            return Boolean.TRUE.equals(set);
        }
    }

    public boolean resume(JobId job) {
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            Long deleted = c.hashCommands().hDel(bytes(keys.of(job, JobKey.STATE)), bytes(FIELD));
            return deleted != null && deleted > 0;
        }
    }

    public Optional<OperatorControl.Pause> paused(JobId job) {
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            byte[] raw = c.hashCommands().hGet(bytes(keys.of(job, JobKey.STATE)), bytes(FIELD));
            if (raw == null) {
                return Optional.empty();
            }
            String[] parts = new String(raw, StandardCharsets.UTF_8).split("\\|", 3);
            if (parts.length < 3 || !parts[0].matches("\\d{1,16}")) {
                // somebody else's value: the acquire script still treats the job as paused
                return Optional.of(new OperatorControl.Pause(null, new String(raw, StandardCharsets.UTF_8), ""));
            }
            return Optional.of(new OperatorControl.Pause(Instant.ofEpochMilli(Long.parseLong(parts[0])), parts[1], parts[2]));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
