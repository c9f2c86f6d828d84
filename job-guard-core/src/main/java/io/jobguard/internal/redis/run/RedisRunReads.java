package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LeaseValues;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunRecord;
import org.springframework.data.redis.connection.RedisConnection;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Reads for {@link RedisLeaseStore}'s {@code RunHistory} capability (the live lease) and its {@code runRecord}:
 * plain reads of one job's keys for operators and the recovery pass, never on a firing's path. The
 * store wraps each call so that a failure names the Redis and what was read.
 */
public record RedisRunReads(ScriptRunner scripts, KeySchema keys) {

    public Optional<LeaseRecord> currentRunLease(JobId job) {
        byte[] key = bytes(keys.of(job, JobKey.RUN_LEASE));
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            String raw = readString(c, key);
            if (raw == null) {
                return Optional.empty();
            }
            Long pttl = c.keyCommands().pTtl(key);
            return Optional.of(LeaseValues.parse(raw, LeaseValues.ttl(pttl == null ? -2 : pttl)));
        }
    }

    public Optional<RunRecord> runRecord(JobId job) {
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            Map<byte[], byte[]> raw = c.hashCommands().hGetAll(bytes(keys.of(job, JobKey.STATE)));
            return RunRecordFields.record(raw);
        }
    }

    /** A key of another type is somebody else's: reported as a value job-guard cannot parse, not a crash. */
    static String readString(RedisConnection c, byte[] key) {
        try {
            byte[] v = c.stringCommands().get(key);
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (String.valueOf(t.getMessage()).contains("WRONGTYPE")) {
                    return "non-string value";
                }
            }
            throw e;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
