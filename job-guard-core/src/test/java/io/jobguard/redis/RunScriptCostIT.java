package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.store.JobId;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Redis runs for one guarded firing, counted by Redis itself ({@code INFO commandstats} counts the commands a
 * script calls): a granted acquire runs six commands, its release five, another node's refused ask of the same fire
 * time three, and a release publishes only when a caller
 * waits for the job. A retry of a failed run is one acquire call with a granted firing's commands; the release that
 * leaves it pending runs one command more (TIME). The run history's retention costs the release no command on 31
 * releases in 32, and on the 32nd two (TIME, LINDEX), two more (LRANGE, LTRIM) when entries are due to go. The scripts
 * are called as {@link RedisLeaseStore} calls them, without the store, so that nothing
 * else (the fleet's leads, the harness) is counted.
 */
@WithRedis
class RunScriptCostIT {

    private static final LuaScript ACQUIRE = LuaScript.load("run-acquire");
    private static final LuaScript RELEASE = LuaScript.load("run-release");
    private static final KeySchema KEYS = new KeySchema("jgcost");
    private static final JobId JOB = new JobId("shop", "report");
    private static final Instant T = Instant.parse("2026-06-01T10:00:00Z");

    private final RedisServerProcess redis;

    RunScriptCostIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void empty() {
        redis.flushAll();
    }

    @Test
    void aGrantedFiringRunsSixCommandsToAcquireAndFiveToReleaseAndARefusalThree() {
        String first = UUID.randomUUID().toString();
        assertThat(acquire(first, T, "")).isEqualTo("ACQUIRED"); // the job's first firing also writes its epoch
        assertThat(release(first)).isEqualTo(1L);
        redis.resetStats();

        String owner = UUID.randomUUID().toString();
        assertThat(acquire(owner, T.plusSeconds(60), "")).isEqualTo("ACQUIRED");
        assertThat(scriptCommands()).as("the acquire's commands").isEqualTo(Map.of("mget", 1L, "hmget", 1L, "time", 1L,
                "set", 2L, "hset", 1L));
        redis.resetStats();
        assertThat(acquire(UUID.randomUUID().toString(), T.plusSeconds(60), "")).isEqualTo("ALREADY_RAN");
        assertThat(scriptCommands()).as("another node's refused ask").isEqualTo(Map.of("mget", 1L, "hmget", 1L, "pttl", 1L));
        redis.resetStats();
        assertThat(release(owner)).isEqualTo(1L);
        assertThat(scriptCommands()).as("the release's commands").isEqualTo(Map.of("get", 1L, "del", 1L, "hget", 1L,
                "hset", 1L, "lpush", 1L));
    }

    @Test
    void aRetryCostsOneAcquireLikeAFiringAndItsReleaseOneTimeMore() {
        String first = UUID.randomUUID().toString();
        assertThat(acquire(first, T, "")).isEqualTo("ACQUIRED");
        redis.resetStats();
        assertThat(release(first, "RETRY_PENDING", "1", "0")).isEqualTo(1L);
        assertThat(scriptCommands()).as("a failed run's release that leaves its retry pending").isEqualTo(Map.of(
                "get", 1L, "del", 1L, "hget", 1L, "hset", 1L, "lpush", 1L, "time", 1L));
        redis.resetStats();

        String retry = UUID.randomUUID().toString();
        assertThat(acquire(retry, T, "", "again:1")).isEqualTo("ACQUIRED");
        assertThat(scriptCommands()).as("the retry's acquire: one call, the commands of a granted firing")
                .isEqualTo(Map.of("mget", 1L, "hmget", 1L, "time", 1L, "set", 2L, "hset", 1L));
        redis.resetStats();
        assertThat(acquire(UUID.randomUUID().toString(), T, "", "again:1")).as("another node's ask for it")
                .isEqualTo("SUPERSEDED");
        assertThat(scriptCommands()).as("a refused ask for a retry").isEqualTo(Map.of("mget", 1L, "hmget", 1L));
    }

    @Test
    void aReleasePublishesOnlyWhenACallerWaitsForTheJob() {
        String holder = UUID.randomUUID().toString();
        assertThat(acquire(holder, T, "")).isEqualTo("ACQUIRED");
        assertThat(acquire(UUID.randomUUID().toString(), T.plusSeconds(1), "")).as("a RETURN caller").isEqualTo("BUSY");
        redis.resetStats();
        assertThat(release(holder)).isEqualTo(1L);
        assertThat(redis.commandStats()).as("nobody waits: no message").doesNotContainKey("publish");

        String next = UUID.randomUUID().toString();
        assertThat(acquire(next, T.plusSeconds(2), "")).isEqualTo("ACQUIRED");
        assertThat(acquire(UUID.randomUUID().toString(), T.plusSeconds(3), "1")).as("a WAIT caller").isEqualTo("BUSY");
        assertThat(redis.call("PTTL", KEYS.of(JOB, JobKey.WAITERS))).as("the waiters key outlives the lease")
                .satisfies(ttl -> assertThat((Long) ttl).isGreaterThan(30_000L));
        redis.resetStats();
        assertThat(release(next)).isEqualTo(1L);
        assertThat(redis.commandStats()).as("one message for the waiter").containsEntry("publish", 1L);
        assertThat(redis.call("EXISTS", KEYS.of(JOB, JobKey.WAITERS))).as("the release consumed the mark").isEqualTo(0L);
    }

    private String acquire(String owner, Instant fireTime, String waits) {
        return acquire(owner, fireTime, waits, "");
    }

    private String acquire(String owner, Instant fireTime, String waits, String mode) {
        List<String> keys = KEYS.runAcquire(JOB, fireTime);
        List<String> args = new ArrayList<>(List.of("EVAL", ACQUIRE.source(), Integer.toString(keys.size())));
        args.addAll(keys);
        args.addAll(List.of(owner, "n1", Long.toString(fireTime.toEpochMilli()), "30000", "330000", "", "300000", "0",
                "", "", mode, "", "", "", waits, "20", "", ""));
        Object reply = redis.call(args.toArray(String[]::new));
        return String.valueOf(((List<?>) reply).get(0));
    }

    private Object release(String owner) {
        return release(owner, "RAN", "1", "");
    }

    private Object release(String owner, String outcome, String attempt, String retryAfterMs) {
        List<String> args = new ArrayList<>(List.of("EVAL", RELEASE.source(), "5"));
        args.addAll(KEYS.runRelease(JOB));
        // the history's defaults: 2,000 entries, 14 days
        args.addAll(List.of(owner, "0", KEYS.releaseChannel(), KEYS.runReleaseTopic(JOB), outcome, "5", "2000", attempt,
                retryAfterMs, Long.toString(Duration.ofDays(14).toMillis()), "", ""));
        return redis.call(args.toArray(String[]::new));
    }

    @Test
    void theLongHistoryCostsTwoCommandsOnOneReleaseInThirtyTwoAndTwoMoreWhenEntriesExpire() {
        // fire times of today, one a minute; the first firing also writes the job's epoch
        Instant start = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES).minus(Duration.ofDays(1));
        String first = UUID.randomUUID().toString();
        assertThat(acquire(first, start, "")).isEqualTo("ACQUIRED");
        assertThat(release(first)).isEqualTo(1L);
        Map<String, Long> releases = new HashMap<>();
        int firings = 319;
        for (int i = 1; i <= firings; i++) {
            String owner = UUID.randomUUID().toString();
            assertThat(acquire(owner, start.plusSeconds(60L * i), "")).isEqualTo("ACQUIRED");
            redis.resetStats();
            assertThat(release(owner)).isEqualTo(1L);
            scriptCommands().forEach((name, count) -> releases.merge(name, count, Long::sum));
        }
        // lengths 2..320: the releases that made it 32, 64, ..., 320 checked the oldest entry (TIME, LINDEX): 10
        assertThat(releases).as("the commands of %d releases", firings).isEqualTo(Map.of("get", 319L, "del", 319L,
                "hget", 319L, "hset", 319L, "lpush", 319L, "time", 10L, "lindex", 10L));
        System.out.printf("RunScriptCostIT: %d releases ran %d commands, %.4f a release%n", firings,
                releases.values().stream().mapToLong(Long::longValue).sum(),
                releases.values().stream().mapToLong(Long::longValue).sum() / (double) firings);

        // 40 entries past the retention at the tail: the next check drops them, with LRANGE and LTRIM once
        String key = KEYS.of(JOB, JobKey.HISTORY);
        long old = Instant.now().minus(Duration.ofDays(15)).toEpochMilli();
        for (int i = 0; i < 40; i++) {
            redis.call("RPUSH", key, "n|MISSED|" + (old - i * 60_000L) + "|" + old + "|n1");
        }
        releases.clear();
        for (int i = firings + 1; i <= firings + 32; i++) {
            String owner = UUID.randomUUID().toString();
            assertThat(acquire(owner, start.plusSeconds(60L * i), "")).isEqualTo("ACQUIRED");
            redis.resetStats();
            assertThat(release(owner)).isEqualTo(1L);
            scriptCommands().forEach((name, count) -> releases.merge(name, count, Long::sum));
        }
        // lengths 361..384: the release that made it 384 checked and dropped the 40 (344 left); 345..352: checked again
        assertThat(releases).containsEntry("time", 2L).containsEntry("lindex", 2L).containsEntry("lrange", 1L)
                .containsEntry("ltrim", 1L).containsEntry("lpush", 32L);
        assertThat(redis.call("LLEN", key)).isEqualTo(352L);
    }

    @Test
    void aHistoryHeldAtItsSizeIsTrimmedOnceInThirtyTwoReleases() {
        Instant start = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).minus(Duration.ofHours(2));
        String key = KEYS.of(JOB, JobKey.HISTORY);
        // the job's list at its size (2,000), 2,000 % 32 = 16: the trims still come 32 releases apart
        List<String> fill = new ArrayList<>(List.of("LPUSH", key));
        for (int i = 0; i < 2_000; i++) {
            long t = start.toEpochMilli() - (2_000 - i) * 1_000L;
            fill.add("o|RAN|5|jg1|tok-" + i + "|" + t + "|" + (t + 3) + "|" + (i + 1) + "|n1");
        }
        redis.call(fill.toArray(String[]::new));
        Map<String, Long> releases = new HashMap<>();
        for (int i = 0; i < 64; i++) {
            String owner = UUID.randomUUID().toString();
            assertThat(acquire(owner, start.plusSeconds(i), "")).isEqualTo("ACQUIRED");
            redis.resetStats();
            assertThat(release(owner)).isEqualTo(1L);
            scriptCommands().forEach((name, count) -> releases.merge(name, count, Long::sum));
            assertThat((Long) redis.call("LLEN", key)).isBetween(2_000L, 2_032L);
        }
        // lengths 2,001..2,032 and again: trimmed back to 2,000 at 2,032, twice
        assertThat(releases).containsEntry("ltrim", 2L).containsEntry("time", 2L).containsEntry("lindex", 2L)
                .containsEntry("lpush", 64L).doesNotContainKey("lrange");
        System.out.printf("RunScriptCostIT: at its size, 64 releases ran %d commands, %.4f a release%n",
                releases.values().stream().mapToLong(Long::longValue).sum(),
                releases.values().stream().mapToLong(Long::longValue).sum() / 64.0);
    }

    /** The commands the scripts called since the last reset: without EVAL itself and the harness's own INFO. */
    private Map<String, Long> scriptCommands() {
        Map<String, Long> calls = new HashMap<>(redis.commandStats());
        calls.keySet().removeIf(name -> name.equals("eval") || name.equals("info") || name.startsWith("config"));
        return calls;
    }
}
