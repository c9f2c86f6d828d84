package io.jobguard.misuse;

import io.jobguard.Admission;
import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.RespClient;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Redis ACL user without channel rights ({@code resetchannels}, Redis 7's default
 * for new users) may use every key but can neither SUBSCRIBE nor PUBLISH. Its WAIT firings fall back
 * to polling instead of failing with STORE_ERROR, and its releases, which delete the lease before
 * the denied PUBLISH, are reported as releases.
 */
@WithRedis
class AclWithoutChannelsIT {

    private static final Instant T = Instant.parse("2026-01-01T10:00:00Z");

    private final RedisServerProcess redis;
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    AclWithoutChannelsIT(RedisServerProcess redis) {
        this.redis = redis;
        redis.call("ACL", "SETUSER", "jgnochannels", "reset", "on", ">secret", "~*", "+@all", "resetchannels");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    private RedisLeaseStore restrictedStore() {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
        server.setUsername("jgnochannels");
        server.setPassword("secret");
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server, LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(10)).shutdownTimeout(Duration.ofMillis(100)).build());
        factory.afterPropertiesSet();
        factory.start();
        factories.add(factory);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "jgacl");
        closeables.add(store);
        return store;
    }

    private JobGuard guard(RedisLeaseStore store, String node) {
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace("acl").node(NodeConfig.builder()
                .nodeId(node).build()).build());
        closeables.add(guard);
        return guard;
    }

    @Test
    void theUserCannotPublishOrSubscribe() throws IOException {
        // Asked as the user itself (ACL DRYRUN exists only from Redis 7; the suite also runs on 6.2)
        try (RespClient user = RespClient.connect(redis.host(), redis.port(), RespClient.DEFAULT_TIMEOUT)) {
            assertThat(user.call("AUTH", "jgnochannels", "secret")).isEqualTo("OK");
            assertThatThrownBy(() -> user.call("PUBLISH", "jgacl:released", "x"))
                    .as("the fixture really denies channels").isInstanceOf(RespClient.ErrorReply.class)
                    .hasMessageContaining("NOPERM");
            assertThat(user.call("SET", "jgacl:x", "1")).isEqualTo("OK");
        }
    }

    @Test
    void aReleaseWhosePublishIsDeniedIsStillARelease() {
        RedisLeaseStore store = restrictedStore();
        JobId job = new JobId("acl", "release");
        RunLeaseRequest request = new RunLeaseRequest(job, T, UUID.randomUUID().toString(), "n1",
                Duration.ofSeconds(30), Duration.ofSeconds(30), 5);
        assertThat(store.acquireRun(request).status()).isEqualTo(io.jobguard.store.AcquireResult.Status.ACQUIRED);

        assertThat(store.releaseRun(request, Duration.ZERO)).as("released, though nobody could be notified").isTrue();
        assertThat(redis.call("EXISTS", "jgacl:{acl:release}:run")).isEqualTo(0L);

        JobGuard guard = guard(store, "n1");
        assertThat(guard.run(JobOptions.builder("release", Duration.ofSeconds(30))
                .build(), T.plusSeconds(60), () -> { }))
                .isEqualTo(RunOutcome.RAN);
        assertThat(guard.currentLease("release")).isEmpty();
    }

    @Test
    void aWaitFiringPollsWhenItCannotSubscribe() {
        JobGuard holder = guard(restrictedStore(), "holder");
        JobGuard waiter = guard(restrictedStore(), "waiter");
        // the holder's lease is short and never released: only polling can see it go
        JobOptions held = JobOptions.builder("wait", Duration.ofSeconds(1)).keepAlive(false).build();
        Admission first = holder.admit(held, T);
        assertThat(first.granted()).isTrue();

        JobOptions waiting = JobOptions.builder("wait", Duration.ofSeconds(30)).type(GuardType.WAIT)
                .waitFor(Duration.ofSeconds(30)).build();
        Admission second = waiter.admit(waiting, T.plusSeconds(1));
        assertThat(second.granted() ? RunOutcome.RAN : second.refusal()).as("the waiting firing's outcome")
                .isEqualTo(RunOutcome.RAN);
        second.permit().finish(null);
    }
}
