package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LeaseValues;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunHistory.FireEntry;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The recent fire times of the Redis store with their outcomes. The list ({@link KeySchema#history})
 * holds three kinds of entries: the lease value {@code run-acquire.lua} pushed (a run that started and
 * has not been released: still running, or its node died or lost the lease), the same prefixed with
 * {@code o|<outcome>|<duration ms>|} by {@code run-release.lua}, and {@code n|<outcome>|<T>|<at>|<node>}
 * from {@code history-note.lua} for a fire time decided without a run.
 */
public final class RedisFireHistory {

    /** Outcome of a run that started and was not released with an outcome. */
    static final String STARTED = "STARTED";

    private static final LuaScript NOTE = LuaScript.load("history-note");
    /** An entry with an outcome: 'o|' for a first attempt, 'a<attempt>|' for a later one (run-release.lua). */
    private static final Pattern OUTCOME_PREFIX = Pattern.compile("^(?:o|a(\\d{1,9}))\\|");
    private static final String NOTE_PREFIX = "n|";

    private final ScriptRunner scripts;
    private final KeySchema keys;

    public RedisFireHistory(ScriptRunner scripts, KeySchema keys) {
        this.scripts = scripts;
        this.keys = keys;
    }

    public void record(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize) {
        scripts.run(NOTE, ReturnType.INTEGER, List.of(keys.of(job, JobKey.HISTORY)), List.of(outcome,
                Long.toString(nominalFireTime.toEpochMilli()), nodeId, Integer.toString(Math.max(0, historySize))));
    }

    public List<FireEntry> read(JobId job, int max) {
        List<FireEntry> out = new ArrayList<>();
        for (String raw : entries(job, max)) {
            FireEntry entry = entry(raw);
            if (entry != null) {
                out.add(entry);
            }
        }
        return out;
    }

    /**
     * The job's recent entries, newest first: the run that holds the lease now (its entry is written by its release),
     * then the list's entries. The lease is read before the list, so a run released in between is listed once, by
     * its entry.
     */
    public List<String> entries(JobId job, int max) {
        List<String> out = new ArrayList<>();
        if (max <= 0) {
            return out;
        }
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            String held = heldLease(c, job);
            List<byte[]> values = c.listCommands()
                    .lRange(keys.of(job, JobKey.HISTORY).getBytes(StandardCharsets.UTF_8), 0, max - 1L);
            List<String> listed = new ArrayList<>();
            if (values != null) {
                for (byte[] v : values) {
                    listed.add(new String(v, StandardCharsets.UTF_8));
                }
            }
            if (held != null && listed.stream().noneMatch(entry -> entry.endsWith(held))) {
                out.add(held);
            }
            for (String entry : listed) {
                if (out.size() < max) {
                    out.add(entry);
                }
            }
        }
        return out;
    }

    /** The lease's value when a run of job-guard's holds it, else null (a key of another type is not a run). */
    private String heldLease(RedisConnection c, JobId job) {
        String value = RedisRunReads.readString(c, keys.of(job, JobKey.RUN_LEASE).getBytes(StandardCharsets.UTF_8));
        return value != null && !LeaseValues.parse(value, null).foreign() ? value : null;
    }

    /**
     * The run lease an entry records, or null for an entry of a fire time decided without a run.
     *
     * @param raw the entry
     * @return the lease record (foreign for a value job-guard did not write), or null
     */
    public static LeaseRecord leaseOf(String raw) {
        if (raw.startsWith(NOTE_PREFIX)) {
            return null;
        }
        if (OUTCOME_PREFIX.matcher(raw).find()) {
            String[] parts = raw.split("\\|", 4);
            return LeaseValues.parse(parts.length == 4 ? parts[3] : raw, null);
        }
        return LeaseValues.parse(raw, null);
    }

    private static FireEntry entry(String raw) {
        try {
            if (raw.startsWith(NOTE_PREFIX)) {
                String[] parts = raw.split("\\|", 5);
                return parts.length < 5 ? null : new FireEntry(millis(parts[2]), parts[4], parts[1], null,
                        millis(parts[3]), -1);
            }
            String outcome = STARTED;
            Duration duration = null;
            int attempt = 1;
            Matcher withOutcome = OUTCOME_PREFIX.matcher(raw);
            if (withOutcome.find()) {
                String[] parts = raw.split("\\|", 4);
                outcome = parts[1];
                duration = Duration.ofMillis(Long.parseLong(parts[2]));
                attempt = withOutcome.group(1) == null ? 1 : Integer.parseInt(withOutcome.group(1));
            }
            LeaseRecord lease = leaseOf(raw);
            return lease == null || lease.foreign() ? null : new FireEntry(lease.nominalFireTime(),
                    lease.describeHolder(), outcome, duration, lease.acquiredAt(), lease.fencingToken(), attempt);
        } catch (RuntimeException e) {
            // an entry job-guard did not write (or cut short): not one of this job's fire times
            return null;
        }
    }

    private static Instant millis(String text) {
        return Instant.ofEpochMilli(Long.parseLong(text));
    }
}
