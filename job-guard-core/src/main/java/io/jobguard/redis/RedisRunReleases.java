package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ReleaseNotifications;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The release of a run lease for {@link RedisLeaseStore}: one {@code run-release.lua} call that frees
 * the lease (owner only), keeps the marker, records completion and the run's outcome and duration,
 * starts the cool-down and wakes waiters.
 */
final class RedisRunReleases {

    private static final LuaScript RELEASE = LuaScript.load("run-release");

    private final ScriptRunner scripts;
    private final KeySchema keys;
    private final ReleaseNotifications notifications;

    RedisRunReleases(ScriptRunner scripts, KeySchema keys, ReleaseNotifications notifications) {
        this.scripts = scripts;
        this.keys = keys;
        this.notifications = notifications;
    }

    boolean release(RunLeaseRequest r, Duration cooldown, String outcome, Duration runTime) {
        List<String> keyList = releaseKeys(r);
        List<String> argList = releaseArgs(r, cooldown, outcome, runTime);
        Long released = RedisLeaseStore.call(() -> scripts.run(RELEASE, ReturnType.INTEGER, keyList, argList),
                "release run lease of " + r.job());
        return released(r, cooldown, released);
    }

    /**
     * On a Lettuce factory that shares its connection (the default), the release is written to that
     * connection and its reply awaited by nobody on the caller's thread: Redis executes it before every
     * later command through the factory, so this node's next acquire always sees it. Elsewhere (Jedis, a
     * factory with dedicated connections) it is the synchronous {@link #release}, already completed.
     */
    CompletionStage<Boolean> releaseAsync(RunLeaseRequest r, Duration cooldown, String outcome, Duration runTime) {
        RedisConnectionFactory factory = scripts.connectionFactory();
        if (!LettuceRelease.handles(factory)) {
            try {
                return CompletableFuture.completedFuture(release(r, cooldown, outcome, runTime));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        String what = "release run lease of " + r.job();
        CompletableFuture<Long> reply;
        try {
            reply = LettuceRelease.eval(factory, RELEASE.body(), bytes(releaseKeys(r)),
                    bytes(releaseArgs(r, cooldown, outcome, runTime)));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(RedisLeaseStore.failed(what, e));
        }
        return reply.handle((released, failure) -> {
            if (failure != null) {
                throw RedisLeaseStore.failed(what, failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure);
            }
            return released(r, cooldown, released);
        });
    }

    /** run-release.lua's KEYS: lease, marker, cool-down, run record, recent fire times. */
    private List<String> releaseKeys(RunLeaseRequest r) {
        JobId job = r.job();
        return List.of(keys.of(job, JobKey.RUN_LEASE), keys.fireMarker(job, r.nominalFireTime()),
                keys.of(job, JobKey.COOLDOWN), keys.of(job, JobKey.RUN_RECORD), keys.of(job, JobKey.HISTORY));
    }

    /** run-release.lua's ARGV; outcome '' (and duration 0) leaves the history entry as the acquire wrote it. */
    private List<String> releaseArgs(RunLeaseRequest r, Duration cooldown, String outcome, Duration runTime) {
        return List.of(r.ownerToken(), Long.toString(Math.max(1, r.markerRetention().toMillis())),
                Long.toString(Math.max(0, cooldown.toMillis())), keys.releaseChannel(), keys.runReleaseTopic(r.job()),
                Long.toString(RedisLeaseStore.RUN_RECORD_TTL.toMillis()), outcome,
                Long.toString(Math.max(0, runTime.toMillis())));
    }

    private boolean released(RunLeaseRequest r, Duration cooldown, Long reply) {
        if (cooldown.isZero()) {
            notifications.signal(keys.runReleaseTopic(r.job()));
        }
        return reply != null && reply == 1L;
    }

    private static byte[][] bytes(List<String> values) {
        return values.stream().map(v -> v.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    }
}
