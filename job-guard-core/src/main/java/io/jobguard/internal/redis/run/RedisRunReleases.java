package io.jobguard.internal.redis.run;

import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ReleaseNotifications;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.internal.redis.StoreCalls;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The release of a run lease for {@link RedisLeaseStore}: one {@code run-release.lua} call that frees
 * the lease (owner only). The same call records completion and the run's history entry (outcome and duration), starts
 * the cool-down and, when a caller on another node waits for the job, publishes the release.
 */
public final class RedisRunReleases {

    private static final LuaScript RELEASE = LuaScript.load("run-release");

    /**
     * How long a read of a job's lease, history or run record waits for this node's release of the job still in
     * flight, so that what a node reads after {@code finish()} includes its release (as its next acquire does).
     * A release is answered within a round trip, or fails by the client's command timeout.
     */
    private static final Duration READ_AFTER_RELEASE_WAIT = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(RedisRunReleases.class);

    private final RateLimitedLog foreignKeys = new RateLimitedLog(Clock.systemUTC(), Duration.ofMinutes(1));
    private final ScriptRunner scripts;
    private final KeySchema keys;
    private final ReleaseNotifications notifications;
    /** A release sent by {@link #releaseAsync} and not answered yet: the lease's owner token and the reply. */
    record InFlight(String ownerToken, CompletableFuture<Long> reply) {
    }

    /** Releases sent by {@link #releaseAsync} and not answered yet, by job (at most one per job). */
    private final Map<JobId, InFlight> inFlight = new ConcurrentHashMap<>();

    public RedisRunReleases(ScriptRunner scripts, KeySchema keys, ReleaseNotifications notifications) {
        this.scripts = scripts;
        this.keys = keys;
        this.notifications = notifications;
    }

    public boolean release(RunLeaseRequest r, Duration cooldown, RunEnd end) {
        List<String> keyList = releaseKeys(r);
        List<String> argList = releaseArgs(r, cooldown, end);
        Long released = StoreCalls.call(() -> scripts.run(RELEASE, ReturnType.INTEGER, keyList, argList),
                "release run lease of " + r.job());
        return released(r, cooldown, released);
    }

    /**
     * On a Lettuce factory that shares its connection (the default), the release is written to that
     * connection and its reply awaited by nobody on the caller's thread: Redis executes it before every
     * later command through the factory. Only a NOSCRIPT retry ({@link LettuceRelease#evalsha}) can go out
     * after a later command, so this node's reads of the job's lease, history and run record first wait for a
     * release of the job still in flight ({@link #awaitInFlight}) and always see it, and its next acquire of the
     * job, sent at once, is asked again after that release when Redis answered that the lease being released
     * still holds the job ({@link #inFlight}). Elsewhere (Jedis, a factory with dedicated connections) it is the synchronous {@link #release},
     * already completed.
     */
    public CompletionStage<Boolean> releaseAsync(RunLeaseRequest r, Duration cooldown, RunEnd end) {
        RedisConnectionFactory factory = scripts.connectionFactory();
        if (!LettuceRelease.handles(factory)) {
            try {
                return CompletableFuture.completedFuture(release(r, cooldown, end));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        String what = "release run lease of " + r.job();
        CompletableFuture<Long> reply;
        try {
            reply = LettuceRelease.evalsha(factory, RELEASE, bytes(releaseKeys(r)),
                    bytes(releaseArgs(r, cooldown, end)));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(StoreCalls.failed(what, e));
        }
        JobId job = r.job();
        InFlight sent = new InFlight(r.ownerToken(), reply);
        inFlight.put(job, sent);
        reply.whenComplete((released, failure) -> inFlight.remove(job, sent));
        return reply.handle((released, failure) -> {
            if (failure != null) {
                throw StoreCalls.failed(what, failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure);
            }
            return released(r, cooldown, released);
        });
    }

    /**
     * Waits, at most {@code bound}, for this node's release of the job that is still in flight (sent by
     * {@link #releaseAsync} and not answered yet). Returns at once when there is none, which is every time
     * on a real schedule: a release is answered within a round trip, a job's next firing comes a period later.
     * Fired back to back, the acquire waits one round trip that it would otherwise have queued behind the
     * release on the connection. A failed or timed-out release ends the wait too (its lease expires by TTL).
     */
    void awaitInFlight(JobId job, Duration bound) {
        InFlight pending = inFlight.get(job);
        if (pending == null || pending.reply().isDone()) {
            return;
        }
        try {
            pending.reply().get(Math.max(1, bound.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the release failed or did not answer in time: counted where it is handled (RunLifecycle);
            // the acquire goes ahead and meets the lease as Redis has it
        }
    }

    /**
     * This node's release of the job still in flight (sent, not answered yet): an acquire sent after it meets that
     * release's lease only when the release went out again after it (a NOSCRIPT retry).
     *
     * @param job the job
     * @return the release's owner token and reply, or {@code null} when none is in flight
     */
    InFlight inFlight(JobId job) {
        return inFlight.get(job);
    }

    /** {@link #awaitInFlight} before a read of the job's lease, history or run record. */
    public void awaitBeforeRead(JobId job) {
        awaitInFlight(job, READ_AFTER_RELEASE_WAIT);
    }

    private List<String> releaseKeys(RunLeaseRequest r) {
        return keys.runRelease(r.job());
    }

    /**
     * run-release.lua's ARGV; outcome '' records the run without its outcome. A failure's class and message line are
     * escaped (no '|'), never empty for a run that threw: its class is set.
     */
    private List<String> releaseArgs(RunLeaseRequest r, Duration cooldown, RunEnd end) {
        return List.of(r.ownerToken(), Long.toString(Math.max(0, cooldown.toMillis())), keys.releaseChannel(),
                keys.runReleaseTopic(r.job()), end.outcome(), Long.toString(Math.max(0, end.runTime().toMillis())),
                Integer.toString(Math.max(0, r.historySize())), Integer.toString(end.attempt()),
                end.retryAfter() == null ? "" : Long.toString(end.retryAfter().toMillis()),
                Long.toString(r.historyRetention().toMillis()),
                end.failureClass() == null ? "" : RedisFireHistory.escape(end.failureClass()),
                end.failureClass() == null ? "" : RedisFireHistory.escape(end.failureMessage()));
    }

    private boolean released(RunLeaseRequest r, Duration cooldown, Long reply) {
        if (cooldown.isZero()) {
            notifications.signal(keys.runReleaseTopic(r.job()));
        }
        if (reply != null && reply == 2L) {
            foreignKeys.warn(log, "foreign|" + r.job(), "job-guard: released the run lease of {} but left {} or {} alone:"
                    + " one holds a value of another type, not job-guard's, so the run's completion or history entry"
                    + " was not written (rename or delete it)", r.job(), keys.of(r.job(), JobKey.STATE),
                    keys.of(r.job(), JobKey.HISTORY));
        }
        return reply != null && reply >= 1L;
    }

    private static byte[][] bytes(List<String> values) {
        return values.stream().map(v -> v.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    }
}
