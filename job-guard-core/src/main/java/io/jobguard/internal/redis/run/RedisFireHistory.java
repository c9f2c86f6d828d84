package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LeaseValues;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunHistory.FireEntry;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.store.RunHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.zip.CRC32;
import java.util.regex.Pattern;

/**
 * The fire times of the Redis store with their outcomes. The list ({@link KeySchema#history}, in the job's slot)
 * holds four kinds of entries, newest recorded first: the lease value {@code run-acquire.lua} pushed (a run that
 * started and has not been released: still running, or its node died or lost the lease), the same prefixed with
 * {@code o|<outcome>|<duration ms>|} (or {@code a<attempt>|...} for a later attempt) by {@code run-release.lua},
 * {@code f<attempt>|<outcome>|<duration ms>|<class>|<message>|} for a run that threw, and
 * {@code n|<outcome>|<T>|<at>|<node>} from {@code history-note.lua} for a fire time decided without a run.
 *
 * <p>Reads walk the list in chunks of {@value #CHUNK} entries and find their place again by the last entry read:
 * entries are only added at the head and trimmed at the tail, so that entry can only have moved towards the tail.
 * A value at the key that is not a list, and an entry job-guard did not write, are skipped with a WARN that names the
 * key (at most once a minute per key); they never fail a read or a firing.
 */
public final class RedisFireHistory {

    /** Outcome of a run that started and was not released with an outcome. */
    static final String STARTED = "STARTED";

    private static final Logger log = LoggerFactory.getLogger(RedisFireHistory.class);
    private static final LuaScript NOTE = LuaScript.load("history-note");
    /** An entry with an outcome: 'o|' for a first attempt, 'a<attempt>|' for a later one (run-release.lua). */
    private static final Pattern OUTCOME_PREFIX = Pattern.compile("^(?:o|a(\\d{1,9}))\\|");
    /** An entry of a run that threw: 'f<attempt>|' (run-release.lua). */
    private static final Pattern FAILURE_PREFIX = Pattern.compile("^f(\\d{1,9})\\|");
    private static final String NOTE_PREFIX = "n|";
    /** Entries read per LRANGE. */
    static final int CHUNK = 500;

    private final ScriptRunner scripts;
    private final KeySchema keys;
    private final RateLimitedLog warnings = new RateLimitedLog(Clock.systemUTC(), Duration.ofMinutes(1));

    public RedisFireHistory(ScriptRunner scripts, KeySchema keys) {
        this.scripts = scripts;
        this.keys = keys;
    }

    public void record(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize) {
        Object reply = scripts.run(NOTE, ReturnType.INTEGER, List.of(keys.of(job, JobKey.HISTORY)), List.of(outcome,
                Long.toString(nominalFireTime.toEpochMilli()), nodeId, Integer.toString(Math.max(0, historySize))));
        if (reply instanceof Long n && n == -1L) {
            foreign(job, "holds a value of another type, not a list; outcome " + outcome + " of fire time "
                    + nominalFireTime + " was not recorded");
        }
    }

    public List<FireEntry> read(JobId job, int max) {
        List<FireEntry> out = new ArrayList<>();
        if (max <= 0) {
            return out;
        }
        walk(job, null, entry -> {
            out.add(entry.entry());
            return out.size() < max;
        });
        return out;
    }

    /**
     * One page of the entries that match the query, after the cursor's entry.
     *
     * @param job      the job
     * @param query    which entries
     * @param cursor   the cursor of the page before, or null for the first
     * @param pageSize at most this many
     * @return the page, with the cursor of its last entry when more may follow
     * @throws IllegalArgumentException if the cursor is not one of this class's
     */
    public RunHistory.Page page(JobId job, RunHistory.Query query, String cursor, int pageSize) {
        Position after = cursor == null ? null : Position.parse(cursor);
        int size = Math.max(1, pageSize);
        List<FireEntry> out = new ArrayList<>();
        Position[] last = new Position[1];
        boolean[] more = new boolean[1];
        walk(job, after, positioned -> {
            if (!query.matches(positioned.entry())) {
                return true;
            }
            if (out.size() == size) {
                more[0] = true;
                return false;
            }
            out.add(positioned.entry());
            last[0] = positioned.position();
            return true;
        });
        return new RunHistory.Page(out, more[0] ? last[0].text() : null);
    }

    /**
     * Hands each entry that matches the query to the sink, newest recorded first, reading {@value #CHUNK} at a time.
     *
     * @param job   the job
     * @param query which entries
     * @param sink  takes each; {@code false} stops
     */
    public void export(JobId job, RunHistory.Query query, Predicate<FireEntry> sink) {
        walk(job, null, positioned -> !query.matches(positioned.entry()) || sink.test(positioned.entry()));
    }

    /**
     * Checks a cursor before a read.
     *
     * @param cursor a cursor, or null
     * @throws IllegalArgumentException if it is not one this class returned
     */
    public static void checkCursor(String cursor) {
        if (cursor != null) {
            Position.parse(cursor);
        }
    }

    /** An entry and where it was read: the list's index (-1 for the live lease) and a hash of its text. */
    private record Positioned(FireEntry entry, Position position) {
    }

    /** Where a walk stands: the index of an entry and the CRC-32 of its text; printed as a cursor. */
    record Position(long index, long crc) {

        String text() {
            return index + "-" + Long.toHexString(crc);
        }

        static Position parse(String cursor) {
            int dash = cursor.indexOf('-', 1);
            try {
                if (dash < 0) {
                    throw new NumberFormatException(cursor);
                }
                return new Position(Long.parseLong(cursor.substring(0, dash)),
                        Long.parseLong(cursor.substring(dash + 1), 16));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("job-guard: not a history cursor: " + cursor);
            }
        }

        static long crc(String raw) {
            CRC32 crc = new CRC32();
            crc.update(raw.getBytes(StandardCharsets.UTF_8));
            return crc.getValue();
        }
    }

    /**
     * Walks the job's entries newest first, from the start (the run that holds the lease now, then the list) or after
     * a position, until the sink answers {@code false} or the list ends. A run released while the walk reads is
     * listed once: the lease is read before the list and left out when the list already holds its entry.
     */
    private void walk(JobId job, Position after, Predicate<Positioned> sink) {
        byte[] key = keys.of(job, JobKey.HISTORY).getBytes(StandardCharsets.UTF_8);
        String held = after == null ? held(job) : null;
        Position anchor = null;
        if (after != null && after.index() >= 0) {
            Long found = find(job, key, after);
            if (found == null) {
                return;
            }
            anchor = new Position(found, after.crc());
        }
        while (true) {
            long base;
            List<String> chunk;
            if (anchor == null) {
                base = 0;
                chunk = range(job, key, 0, CHUNK - 1L);
            } else {
                // one more than a chunk, from the anchor: entries recorded meanwhile have pushed it towards the tail
                chunk = range(job, key, anchor.index(), anchor.index() + CHUNK);
                if (chunk.isEmpty() || Position.crc(chunk.get(0)) != anchor.crc()) {
                    Long found = find(job, key, anchor);
                    if (found == null) {
                        return;
                    }
                    anchor = new Position(found, anchor.crc());
                    chunk = range(job, key, found, found + CHUNK);
                }
                base = anchor.index() + 1;
                chunk = chunk.subList(1, chunk.size());
            }
            if (held != null) {
                String lease = held;
                held = null;
                FireEntry entry = chunk.stream().anyMatch(raw -> raw.endsWith(lease)) ? null : entry(lease);
                if (entry != null && !sink.test(new Positioned(entry, new Position(-1, Position.crc(lease))))) {
                    return;
                }
            }
            for (int i = 0; i < chunk.size(); i++) {
                String raw = chunk.get(i);
                FireEntry entry = entry(raw);
                if (entry == null) {
                    foreign(job, "holds an entry job-guard did not write (skipped): " + abbreviated(raw));
                } else if (!sink.test(new Positioned(entry, new Position(base + i, Position.crc(raw))))) {
                    return;
                }
            }
            if (chunk.size() < CHUNK) {
                return;
            }
            anchor = new Position(base + chunk.size() - 1, Position.crc(chunk.get(chunk.size() - 1)));
        }
    }

    /** The position in the chunk of the entry with this CRC-32, or null. */
    private static Long locate(List<String> chunk, long crc) {
        for (int i = 0; i < chunk.size(); i++) {
            if (Position.crc(chunk.get(i)) == crc) {
                return (long) i;
            }
        }
        return null;
    }

    /** Where the position's entry is now (it can only have moved towards the tail), or null once it was trimmed. */
    private Long find(JobId job, byte[] key, Position position) {
        long from = position.index();
        while (true) {
            List<String> chunk = range(job, key, from, from + CHUNK - 1);
            Long at = locate(chunk, position.crc());
            if (at != null) {
                return from + at;
            }
            if (chunk.size() < CHUNK) {
                return null;
            }
            from += CHUNK;
        }
    }

    private List<String> range(JobId job, byte[] key, long from, long to) {
        List<byte[]> values;
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            values = c.listCommands().lRange(key, from, to);
        } catch (DataAccessException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (String.valueOf(cause.getMessage()).startsWith("WRONGTYPE")) {
                    foreign(job, "holds a value of another type, not a list (read as empty)");
                    return List.of();
                }
            }
            throw e;
        }
        List<String> out = new ArrayList<>();
        if (values != null) {
            for (byte[] v : values) {
                out.add(new String(v, StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private void foreign(JobId job, String what) {
        String key = keys.of(job, JobKey.HISTORY);
        // one WARN a minute per key and kind of problem (a value of another type, an entry not job-guard's)
        warnings.warn(log, what.substring(0, Math.min(20, what.length())) + "|" + key, "job-guard: history key {} {}; job-guard writes only its own entries there"
                + " (rename or delete the key if it is not job-guard's)", key, what);
    }

    private static String abbreviated(String raw) {
        return raw.length() <= 80 ? raw : raw.substring(0, 77) + "...";
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
        String held = held(job);
        List<String> listed = range(job, keys.of(job, JobKey.HISTORY).getBytes(StandardCharsets.UTF_8), 0, max - 1L);
        if (held != null && listed.stream().noneMatch(entry -> entry.endsWith(held))) {
            out.add(held);
        }
        for (String entry : listed) {
            if (out.size() < max) {
                out.add(entry);
            }
        }
        return out;
    }

    private String held(JobId job) {
        try (RedisConnection c = scripts.connectionFactory().getConnection()) {
            return heldLease(c, job);
        }
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
        if (FAILURE_PREFIX.matcher(raw).find()) {
            String[] parts = raw.split("\\|", 6);
            return LeaseValues.parse(parts.length == 6 ? parts[5] : raw, null);
        }
        if (OUTCOME_PREFIX.matcher(raw).find()) {
            String[] parts = raw.split("\\|", 4);
            return LeaseValues.parse(parts.length == 4 ? parts[3] : raw, null);
        }
        return LeaseValues.parse(raw, null);
    }

    /**
     * The entry's fields, or null for a value job-guard did not write (or cut short).
     *
     * @param raw the entry as stored
     * @return the entry, or null
     */
    public static FireEntry entry(String raw) {
        try {
            if (raw.startsWith(NOTE_PREFIX)) {
                String[] parts = raw.split("\\|", 5);
                return parts.length < 5 ? null : new FireEntry(millis(parts[2]), parts[4], parts[1], null,
                        millis(parts[3]), -1);
            }
            String outcome = STARTED;
            Duration duration = null;
            int attempt = 1;
            String failureClass = null;
            String failureMessage = null;
            Matcher failed = FAILURE_PREFIX.matcher(raw);
            Matcher withOutcome = OUTCOME_PREFIX.matcher(raw);
            if (failed.find()) {
                String[] parts = raw.split("\\|", 6);
                outcome = parts[1];
                duration = Duration.ofMillis(Long.parseLong(parts[2]));
                attempt = Integer.parseInt(failed.group(1));
                failureClass = unescape(parts[3]);
                failureMessage = unescape(parts[4]);
            } else if (withOutcome.find()) {
                String[] parts = raw.split("\\|", 4);
                outcome = parts[1];
                duration = Duration.ofMillis(Long.parseLong(parts[2]));
                attempt = withOutcome.group(1) == null ? 1 : Integer.parseInt(withOutcome.group(1));
            }
            LeaseRecord lease = leaseOf(raw);
            return lease == null || lease.foreign() ? null : new FireEntry(lease.nominalFireTime(),
                    lease.describeHolder(), outcome, duration, lease.acquiredAt(), lease.fencingToken(), attempt,
                    failureClass, failureMessage);
        } catch (RuntimeException e) {
            // an entry job-guard did not write (or cut short): not one of this job's fire times
            return null;
        }
    }

    /**
     * A failure's class or message line as run-release.lua stores it: no '|' (the entry's separator) and no line
     * break; '%' escapes both and itself.
     *
     * @param text the text, or null
     * @return the escaped text, {@code ""} for null
     */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '%' -> out.append("%25");
                case '|' -> out.append("%7C");
                case '\n' -> out.append("%0A");
                case '\r' -> out.append("%0D");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    static String unescape(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        return text.replace("%7C", "|").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%");
    }

    private static Instant millis(String text) {
        return Instant.ofEpochMilli(Long.parseLong(text));
    }
}
