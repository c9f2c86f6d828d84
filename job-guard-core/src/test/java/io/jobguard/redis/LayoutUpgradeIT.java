package io.jobguard.redis;

import io.jobguard.internal.redis.LuaScript;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.RedisClusterProcess;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A rolling upgrade from key layout 1 (epoch, counter, run record and pause flag in keys of their own), with keys
 * written by layout 1's own scripts (frozen copies in the test resources): a node of layout 2 runs nothing of a job
 * that still has layout-1 keys and says how to migrate; after {@link RedisLeaseStore#migrateLayout1()} it refuses the
 * fire time layout 1 ran (shared marker), hands out tokens above layout 1's, keeps the run record (a gap is caught up,
 * not lost) and the pause flag.
 */
@WithRedis
class LayoutUpgradeIT {

    private static final String PREFIX = "jgup";
    private static final LuaScript V1_ACQUIRE = LuaScript.load("layout1-run-acquire");
    private static final LuaScript V1_RELEASE = LuaScript.load("layout1-run-release");
    private static final Instant T0 = Instant.parse("2026-06-01T10:00:00Z");

    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final List<RedisLeaseStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(RedisLeaseStore::close);
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    @Test
    void aJobKeptInLayout1IsRefusedUntilMigratedThenNeverRunsWhatLayout1Ran(RedisServerProcess redis) {
        redis.flushAll();
        JobId job = new JobId("shop", "report");
        String base = PREFIX + ":{shop:report}";
        long v1Token = v1Firing(redis, job, T0);
        v1Firing(redis, job, T0.plusSeconds(60));
        RedisLeaseStore store = store(redis.connectionFactory(Duration.ofSeconds(5)));

        assertThatThrownBy(() -> store.acquireRun(request(job, T0.plusSeconds(120)),
                AcquireMode.regular(T0.plusSeconds(60), null, 1)))
                .isInstanceOf(LeaseStoreException.class)
                .hasMessageContaining(base + ":epoch").hasMessageContaining("migrateLayout1()");
        assertThat(redis.call("EXISTS", base + ":state-v2", base + ":run", base + ":fired:" + T0.plusSeconds(120).toEpochMilli()))
                .as("a refused job gets nothing written").isEqualTo(0L);

        assertThat(store.migrateLayout1()).isEqualTo(1);
        assertThat(redis.call("EXISTS", base + ":epoch", base + ":fence", base + ":record", base + ":paused"))
                .as("layout 1's state keys are gone").isEqualTo(0L);
        assertThat(store.migrateLayout1()).as("nothing left to move").isZero();

        // the fire time layout 1 ran last: its marker is shared, so it is refused
        assertThat(store.acquireRun(request(job, T0.plusSeconds(60)), AcquireMode.regular(T0, null, 1)).status())
                .isEqualTo(AcquireResult.Status.ALREADY_RAN);
        // the record came along: a fire time after a gap meets the gap check instead of skipping it silently
        AcquireResult gap = store.acquireRun(request(job, T0.plusSeconds(180)), AcquireMode.regular(T0.plusSeconds(120), null, 1));
        assertThat(gap.status()).isEqualTo(AcquireResult.Status.CATCH_UP);
        assertThat(gap.record().handled()).isEqualTo(T0.plusSeconds(60));
        // the next fire time runs, with a token above every token layout 1 handed out
        AcquireResult next = store.acquireRun(request(job, T0.plusSeconds(120)), AcquireMode.regular(T0.plusSeconds(60), null, 1));
        assertThat(next.status()).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(next.fencingToken()).isGreaterThan(v1Token);
    }

    @Test
    void aPauseSetInLayout1OutlivesTheMigration(RedisServerProcess redis) {
        redis.flushAll();
        JobId job = new JobId("shop", "paused");
        String base = PREFIX + ":{shop:paused}";
        v1Firing(redis, job, T0);
        redis.call("SET", base + ":paused", "1700000000000|old-node|alice");
        RedisLeaseStore store = store(redis.connectionFactory(Duration.ofSeconds(5)));

        assertThat(store.migrateLayout1()).isEqualTo(1);

        assertThat(store.acquireRun(request(job, T0.plusSeconds(60))).status()).isEqualTo(AcquireResult.Status.PAUSED);
        assertThat(store.paused(job)).hasValueSatisfying(p -> assertThat(p.by()).isEqualTo("alice"));
    }

    @Test
    void theMigrationFindsTheJobsOfEveryClusterMaster(RedisClusterProcess cluster) {
        cluster.ensureRunning();
        cluster.flushAll();
        List<String> bases = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String base = PREFIX + ":{shop:job-" + i + "}";
            bases.add(base);
            cluster.masterOf(base).call("SET", base + ":epoch", "1700000000000|new");
            cluster.masterOf(base).call("SET", base + ":fence", Long.toString(1_700_000_000_000_000L + i));
        }
        assertThat(bases.stream().map(b -> cluster.masterOf(b)).distinct()).as("the jobs are spread over the masters")
                .hasSize(cluster.masters().size());
        RedisLeaseStore store = store(cluster.connectionFactory(Duration.ofSeconds(5)));

        assertThat(store.migrateLayout1()).isEqualTo(12);

        for (int i = 0; i < bases.size(); i++) {
            RedisServerProcess master = cluster.masterOf(bases.get(i));
            assertThat(master.call("EXISTS", bases.get(i) + ":epoch", bases.get(i) + ":fence")).isEqualTo(0L);
            assertThat(master.call("HGET", bases.get(i) + ":state-v2", "f")).isEqualTo(Long.toString(1_700_000_000_000_000L + i));
            assertThat(master.call("HGET", bases.get(i) + ":state-v2", "e")).isEqualTo("1700000000000|new");
        }
    }

    private RedisLeaseStore store(LettuceConnectionFactory factory) {
        factories.add(factory);
        RedisLeaseStore store = RedisLeaseStore.create(factory, PREFIX);
        stores.add(store);
        return store;
    }

    private static RunLeaseRequest request(JobId job, Instant fireTime) {
        return new RunLeaseRequest(job, fireTime, UUID.randomUUID().toString(), "new-node", Duration.ofSeconds(30),
                Duration.ofMinutes(5), 20);
    }

    /** One firing by a node of layout 1, through its own scripts: acquire (gap-checked) then release; the token. */
    private static long v1Firing(RedisServerProcess redis, JobId job, Instant fireTime) {
        String base = PREFIX + ":{" + job.namespace() + ":" + job.name() + "}";
        String token = UUID.randomUUID().toString();
        String t = Long.toString(fireTime.toEpochMilli());
        Object reply = redis.call("EVAL", V1_ACQUIRE.source(), "8", base + ":run", base + ":fired:" + t, base + ":fence",
                base + ":cooldown", base + ":history", base + ":epoch", base + ":record", base + ":paused",
                token, "old-node", t, "30000", "330000", "20", "", "300000", "0", "", "", "", "3024000000", "", "", "");
        List<?> answer = (List<?>) reply;
        assertThat(answer.get(0)).as("layout 1 granted %s", fireTime).isEqualTo("ACQUIRED");
        Object released = redis.call("EVAL", V1_RELEASE.source(), "5", base + ":run", base + ":fired:" + t,
                base + ":cooldown", base + ":record", base + ":history", token, "300000", "0", PREFIX + ":released",
                "run|" + job.namespace() + "|" + job.name(), "3024000000", "RAN", "5");
        assertThat(released).isEqualTo(1L);
        return Long.parseLong(String.valueOf(answer.get(2)));
    }
}
