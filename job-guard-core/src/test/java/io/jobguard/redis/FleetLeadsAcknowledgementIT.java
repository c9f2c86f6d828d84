package io.jobguard.redis;

import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.AcquireResult;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.TcpProxy;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.jobguard.redis.LossProbes.awaitRedis;
import static io.jobguard.redis.LossProbes.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node whose lead outgrew the fleet's waits, before its admission, until every other live node has read that lead
 * ({@link FleetLeads}); a node held back longer than the retention drops out of that wait and, once it reads again,
 * judges a loss with the configured window ({@link LossWindows}). On a real redis-server: node A on time, node R whose
 * link to Redis runs through a {@link TcpProxy} the tests pause (R's reads are held, as on a starved or paused node),
 * and a leader C that joins ahead of Redis' clock. The configured window ({@code skew-tolerance}) is one minute.
 */
@WithRedis
class FleetLeadsAcknowledgementIT {

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory direct;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private TcpProxy proxy;

    FleetLeadsAcknowledgementIT(RedisServerProcess redis) {
        this.redis = redis;
        this.direct = redis.connectionFactory(Duration.ofSeconds(5));
    }

    @BeforeEach
    void start() {
        redis.flushAll();
        proxy = TcpProxy.start(redis.host(), redis.port());
    }

    @AfterEach
    void stop() throws Exception {
        proxy.resume();
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        direct.destroy();
        proxy.close();
    }

    private RedisLeaseStore store() {
        RedisLeaseStore store = RedisLeaseStore.create(direct, "jgtest");
        toClose.add(store);
        return store;
    }

    /** A store whose link runs through the proxy; its commands wait out any pause of the tests (10 s time-out). */
    private RedisLeaseStore heldBackStore() {
        LettuceConnectionFactory factory = proxy.connectionFactory(Duration.ofSeconds(10));
        toClose.add(factory::destroy);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgtest");
        toClose.add(store);
        return store;
    }

    /** The published-at (Redis millis) of a node's entry in the leads hash, -1 when it has none. */
    private long publishedAt(String node) {
        Object value = redis.call("HGET", "jgtest:leads", node);
        return value == null ? -1 : Long.parseLong(String.valueOf(value).split("\\|")[0]);
    }

    /** A (on time) and R (through the proxy) take a fire time each and read the fleet for a few intervals. */
    private void onTime(RedisLeaseStore a, RedisLeaseStore r) {
        Instant now = a.serverTime();
        assertThat(take(a, "a", now)).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(take(r, "r", now.plusMillis(500))).isEqualTo(AcquireResult.Status.ACQUIRED);
        awaitRedis(a, now.plusMillis(3 * FleetLeads.INTERVAL_MILLIS));
    }

    /** C takes the fire time {@code ahead} in the background; records R's entry right after C's answer. */
    private CompletableFuture<AcquireResult.Status> leaderTakes(RedisLeaseStore c, Instant ahead, AtomicLong readerAt) {
        return CompletableFuture.supplyAsync(() -> {
            AcquireResult.Status status = take(c, "c", ahead);
            readerAt.set(publishedAt("r"));
            return status;
        });
    }

    /**
     * R's link stalls for less than the retention (about 1 s) while C, 4 s ahead, takes its first fire time: C's
     * admission returns only after R has published (and so read) again, past the stall.
     */
    @Test
    void aLeaderWaitsUntilAReaderHeldBackLessThanTheRetentionHasReadItsLead() throws Exception {
        RedisLeaseStore a = store();
        RedisLeaseStore r = heldBackStore();
        onTime(a, r);
        RedisLeaseStore c = store();
        Instant ahead = c.serverTime().plusSeconds(4);
        long published = publishedAt("r");
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> publishedAt("r") > published);
        proxy.pause(); // right after R's publication: its entry leaves the hash no earlier than about 2 s from now
        long pausedAt = a.serverTime().toEpochMilli();
        AtomicLong readerAtAnswer = new AtomicLong();
        CompletableFuture<AcquireResult.Status> leader = leaderTakes(c, ahead, readerAtAnswer);
        await().during(Duration.ofMillis(700)).atMost(Duration.ofMillis(1000)).pollInterval(Duration.ofMillis(20))
                .until(() -> !leader.isDone());
        proxy.resume();
        assertThat(leader.get(10, TimeUnit.SECONDS)).isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(readerAtAnswer.get()).as("R's entry when C's admission returned: published after the stall began")
                .isGreaterThan(pausedAt);
    }

    /**
     * R's link stalls for longer than the retention: C, 15 s ahead, takes its fire time once R's entry left the hash
     * (R still held) and stops; its entry leaves the hash before R reads again, so R never reads C's lead. After Redis
     * loses its data, R refuses C's fire time: its reads lay more than the retention apart, so it keeps
     * {@code skew-tolerance} (judged from the leads it read, it would run it).
     */
    @Test
    void aReaderHeldBackLongerThanTheRetentionLetsTheLeaderRunAndThenRefusesItsFireTimeAfterALoss() throws Exception {
        RedisLeaseStore a = store();
        RedisLeaseStore r = heldBackStore();
        onTime(a, r);
        RedisLeaseStore c = store();
        Instant ahead = c.serverTime().plusSeconds(15);
        proxy.pause();
        long rBefore = publishedAt("r");
        AtomicLong readerAtAnswer = new AtomicLong();
        assertThat(leaderTakes(c, ahead, readerAtAnswer).get(10, TimeUnit.SECONDS))
                .as("C proceeds once the held R dropped out").isEqualTo(AcquireResult.Status.ACQUIRED);
        assertThat(readerAtAnswer.get()).as("R's entry left the hash before it read C's lead").isEqualTo(-1);
        c.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> publishedAt("c") < 0); // A's reads delete it
        proxy.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> publishedAt("r") > rBefore);
        awaitRedis(a, Instant.ofEpochMilli(publishedAt("r")).plusMillis(3 * FleetLeads.INTERVAL_MILLIS));

        redis.flushAll();
        assertThat(take(r, "r", r.serverTime())).as("R learns of the loss").isEqualTo(AcquireResult.Status.HISTORY_LOST);
        assertThat(r.serverTime()).as("the loss comes well before C's fire time").isBefore(ahead.minusSeconds(3));
        awaitRedis(r, ahead);
        assertThat(take(r, "r", ahead)).as("C ran it before the loss; R never read C's lead")
                .isEqualTo(AcquireResult.Status.HISTORY_LOST);
    }
}
