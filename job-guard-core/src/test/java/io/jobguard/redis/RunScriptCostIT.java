package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.store.JobId;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
 * leaves it pending runs one command more (TIME). The scripts are called as {@link RedisLeaseStore} calls them, without the store, so that nothing
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
        args.addAll(List.of(owner, "0", KEYS.releaseChannel(), KEYS.runReleaseTopic(JOB), outcome, "5", "20", attempt,
                retryAfterMs));
        return redis.call(args.toArray(String[]::new));
    }

    /** The commands the scripts called since the last reset: without EVAL itself and the harness's own INFO. */
    private Map<String, Long> scriptCommands() {
        Map<String, Long> calls = new HashMap<>(redis.commandStats());
        calls.keySet().removeIf(name -> name.equals("eval") || name.equals("info") || name.startsWith("config"));
        return calls;
    }
}
