package io.jobguard.spring.it;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * After Redis was down for about ten seconds and comes back (same port, data kept
 * in an RDB file), the first guarded run of an every-second job starts within one period plus one
 * second. Lettuce's default reconnect backoff doubles up to 30 s, so before
 * {@code jobguard.redis.reconnect-delay-max} the first run came seconds later (issue: 7.2 s).
 */
@WithRedis
class RedisRecoveryIT {

    /** The reconnect cap under test; {@code -Djobguard.test.reconnect-delay-max=0} shows Lettuce's default. */
    private static final String RECONNECT_CAP = System.getProperty("jobguard.test.reconnect-delay-max", "500ms");

    private static final Logger log = LoggerFactory.getLogger(RedisRecoveryIT.class);

    private static final Duration OUTAGE = Duration.ofSeconds(10);

    private final RedisServerProcess redis;

    RedisRecoveryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void clearLog() {
        SkewApp.LOG.clear();
    }

    @AfterEach
    void forgetTheDump() {
        redis.ensureRunning();
        // later restarts of this shared server must come back empty, as the harness promises
        redis.flushAll();
        redis.call("SAVE");
    }

    @Test
    void theFirstGuardedRunAfterRedisReturnsStartsWithinOnePeriodPlusOneSecond() {
        try (Nodes nodes = Nodes.start(redis, SkewApp.class, List.of(List.of("jobguard.node-id=recovering",
                "jobguard.namespace=recovery", "test.job=cron", "spring.data.redis.timeout=1s",
                "jobguard.redis.reconnect-delay-max=" + RECONNECT_CAP)))) {
            assertThat(nodes.contexts()).hasSize(1);
            await().atMost(Duration.ofSeconds(20)).until(() -> !SkewApp.LOG.runs().isEmpty());

            // keep the data through the restart (so nothing is HISTORY_LOST), but no run lease in it: a lease
            // saved mid-run would survive the restart and block the job for the rest of its 30 s
            await().atMost(Duration.ofSeconds(20)).until(this::savedBetweenRuns);
            redis.stop();
            long down = System.nanoTime();
            // ten seconds down (the outage), firings skipped meanwhile
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(50))
                    .until(() -> System.nanoTime() - down >= OUTAGE.toNanos() && storeErrors() >= 3);
            long outage = System.nanoTime() - down;

            redis.restart();
            long back = System.nanoTime();
            await().atMost(Duration.ofSeconds(40)).until(() -> firstRunAfter(back).isPresent());
            Duration firstRun = Duration.ofNanos(firstRunAfter(back).orElseThrow().startNanos() - back);
            log.info("Redis down {} ms, first guarded run {} ms after it answered (reconnect-delay-max={})",
                    outage / 1_000_000, firstRun.toMillis(), RECONNECT_CAP);
            assertThat(firstRun).as("first run after Redis returned (reconnect-delay-max=%s); decisions: %s",
                            RECONNECT_CAP, SkewApp.LOG.decisions())
                    .isLessThanOrEqualTo(Duration.ofSeconds(2));
        }
    }

    /** SAVEs; true if no run held the lease and none started meanwhile (the fencing counter did not move). */
    private boolean savedBetweenRuns() {
        Object fenceBefore = redis.call("HGET", "jobguard:{recovery:skew-cron}:state-v2", "f");
        Object leaseBefore = redis.call("EXISTS", "jobguard:{recovery:skew-cron}:run");
        redis.call("SAVE");
        Object fenceAfter = redis.call("HGET", "jobguard:{recovery:skew-cron}:state-v2", "f");
        return Long.valueOf(0).equals(leaseBefore) && java.util.Objects.equals(fenceBefore, fenceAfter);
    }

    private static long storeErrors() {
        return SkewApp.LOG.decisions().stream().filter(d -> d.contains(" STORE_ERROR at ")).count();
    }

    private static Optional<FireLog.Run> firstRunAfter(long nanos) {
        return SkewApp.LOG.runs().stream().filter(r -> r.startNanos() > nanos).findFirst();
    }
}
