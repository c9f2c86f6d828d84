package io.jobguard.shedlock;

import io.jobguard.JobEvent;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.internal.Names;
import io.jobguard.internal.TimeBounds;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A ShedLock {@link ExtensibleLockProvider} backed by job-guard's Redis, so that an application
 * swaps its {@code LockProvider} bean and keeps every {@code @SchedulerLock} as it is. Guarantees:
 * <ul>
 *   <li>a lock is one Redis key taken with {@code SET NX PX lockAtMostFor}: while it lives nobody
 *       else gets it, and it expires by Redis' clock after {@code lockAtMostFor} even if its holder
 *       died;</li>
 *   <li>{@code lockAtLeastFor} is honoured as ShedLock documents it: an unlock earlier than
 *       {@code lockAtLeastFor} after the lock was taken (or last extended) keeps the key until
 *       then, measured by the Redis server's clock, never a client's;</li>
 *   <li>unlock and extend act only on the caller's own lock (an owner token checked inside a Lua
 *       script, always on): a lock that expired and was taken by another node is never released or
 *       prolonged by the former holder;</li>
 *   <li>{@link SimpleLock#extend(Duration, Duration)} returns a new handle and leaves the old one
 *       unusable ({@link IllegalStateException} on any further call), as does {@code unlock}.</li>
 * </ul>
 * Every unlocked lock is reported to the optional {@link JobGuardListener} (for example
 * job-guard's Micrometer binder) as a {@link JobEvent} with outcome {@link RunOutcome#RAN} and the
 * lock name as job, the Redis lock time as fire time and the time held as run time; a refused
 * attempt as {@link RunOutcome#BUSY} (fire time null). RAN means the lock was held and released:
 * a provider cannot see whether the task it guarded threw. Pass job-guard's {@code JobGuardMetrics} as
 * listener to count them in {@code jobguard.job.runs}. {@link #heldLocks()} lists the
 * locks this instance holds, for an actuator. Thread-safe; Redis failures surface as ShedLock's
 * {@link LockException}.
 */
public final class JobGuardLockProvider implements ExtensibleLockProvider {

    private static final Logger log = LoggerFactory.getLogger(JobGuardLockProvider.class);
    private static final LuaScript LOCK = LuaScript.load("shedlock-lock");
    private static final LuaScript UNLOCK = LuaScript.load("shedlock-unlock");
    private static final LuaScript EXTEND = LuaScript.load("shedlock-extend");

    private final KeySchema keys;
    private final ScriptRunner scripts;
    private final String namespace;
    private final String nodeId;
    private final JobGuardListener listener;
    private final ConcurrentHashMap<String, RedisShedLock> held = new ConcurrentHashMap<>();

    private JobGuardLockProvider(Builder b) {
        this.keys = new KeySchema(b.keyPrefix);
        this.scripts = new ScriptRunner(b.connectionFactory);
        this.namespace = b.namespace;
        this.nodeId = b.node.nodeId();
        this.listener = b.listener;
    }

    /**
     * A builder with job-guard's defaults: key prefix {@code jobguard}, namespace of
     * {@link JobGuardConfig#defaults()}, {@link NodeConfig#defaults()}, no listener.
     *
     * @param connectionFactory the Redis connections to use (not closed by the provider)
     * @return a builder
     * @throws NullPointerException if the factory is null
     */
    public static Builder builder(RedisConnectionFactory connectionFactory) {
        return new Builder(Objects.requireNonNull(connectionFactory, "connectionFactory"));
    }

    /**
     * Takes the lock named in {@code configuration} for {@code lockAtMostFor}, unless somebody
     * holds it. Not getting the lock is a normal result, not an exception.
     *
     * @param configuration the lock name, lockAtMostFor and lockAtLeastFor
     * @return the lock, or empty if it is held elsewhere (or kept for its lockAtLeastFor)
     * @throws IllegalArgumentException if the lock name breaks job-guard's name rules or lockAtMostFor is not
     *                                  between 1 ms and 3,650 days
     * @throws LockException            if Redis cannot be reached
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Objects.requireNonNull(configuration, "configuration");
        String name = Names.name(configuration.getName(), "ShedLock lock name");
        requirePositive(configuration.getLockAtMostFor(), name);
        long started = System.nanoTime();
        String token = UUID.randomUUID().toString();
        List<Object> reply = call(() -> scripts.run(LOCK, ReturnType.MULTI, List.of(key(name)),
                List.of(token, nodeId, Long.toString(millis(configuration.getLockAtMostFor())))), "lock", name);
        long acquireNanos = System.nanoTime() - started;
        if (!"LOCKED".equals(ScriptRunner.text(reply.get(0)))) {
            log.debug("job-guard: ShedLock lock '{}' node={} outcome BUSY (holder '{}', expires in {} ms)", name,
                    nodeId, ScriptRunner.text(reply.get(1)), ScriptRunner.number(reply.get(2)));
            report(name, null, RunOutcome.BUSY, acquireNanos, 0);
            return Optional.empty();
        }
        Instant lockedAt = Instant.ofEpochMilli(ScriptRunner.number(reply.get(1)));
        RedisShedLock lock = new RedisShedLock(this, new RedisShedLock.Grant(name, token, lockedAt,
                configuration.getLockAtMostFor(), configuration.getLockAtLeastFor(), started, acquireNanos));
        held.put(token, lock);
        log.debug("job-guard: ShedLock lock '{}' node={} locked at {} for at most {}", name, nodeId, lockedAt,
                configuration.getLockAtMostFor());
        return Optional.of(lock);
    }

    /**
     * The locks this instance holds now (taken, not unlocked, not past their lockAtMostFor),
     * ordered by name; for an actuator endpoint.
     *
     * @return a snapshot of the held locks
     */
    public List<HeldLock> heldLocks() {
        long now = System.nanoTime();
        List<HeldLock> out = new ArrayList<>();
        for (RedisShedLock lock : held.values()) {
            if (lock.expired(now)) {
                held.remove(lock.grant().token(), lock);
            } else {
                out.add(lock.describe(nodeId));
            }
        }
        out.sort(Comparator.comparing(HeldLock::name).thenComparing(HeldLock::lockedAt));
        return out;
    }

    @Override
    public String toString() {
        return "JobGuardLockProvider[prefix=" + keys.prefix() + ", namespace=" + namespace + ", node=" + nodeId + "]";
    }

    /** Runs the owner-checked unlock; called once per handle. */
    void unlock(RedisShedLock.Grant lock) {
        held.remove(lock.token());
        Long kept = call(() -> scripts.run(UNLOCK, ReturnType.INTEGER, List.of(key(lock.name())),
                List.of(lock.token(), Long.toString(Math.max(0, lock.lockAtLeastFor().toMillis())))),
                "unlock", lock.name());
        if (kept == null || kept < 0) {
            log.warn("job-guard: ShedLock lock '{}' node={} was no longer held at unlock (its lockAtMostFor {} "
                    + "had passed); nothing released", lock.name(), nodeId, lock.lockAtMostFor());
        } else {
            log.debug("job-guard: ShedLock lock '{}' node={} unlocked (kept {} ms for lockAtLeastFor)", lock.name(),
                    nodeId, kept);
        }
        report(lock.name(), lock.lockedAt(), RunOutcome.RAN, lock.acquireNanos(), System.nanoTime() - lock.started());
    }

    /** Runs the owner-checked extend; the old handle is already invalid. */
    Optional<SimpleLock> extend(RedisShedLock.Grant lock, Duration lockAtMostFor, Duration lockAtLeastFor) {
        String newToken = UUID.randomUUID().toString();
        Long lockedAt = call(() -> scripts.run(EXTEND, ReturnType.INTEGER, List.of(key(lock.name())),
                List.of(lock.token(), newToken, nodeId, Long.toString(millis(lockAtMostFor)))), "extend", lock.name());
        held.remove(lock.token());
        if (lockedAt == null || lockedAt < 0) {
            log.debug("job-guard: ShedLock lock '{}' node={} could not be extended: no longer held", lock.name(),
                    nodeId);
            return Optional.empty();
        }
        RedisShedLock extended = new RedisShedLock(this, lock.extended(newToken, Instant.ofEpochMilli(lockedAt),
                lockAtMostFor, lockAtLeastFor));
        held.put(newToken, extended);
        return Optional.of(extended);
    }

    private String key(String name) {
        return keys.shedLock(namespace, name);
    }

    private void report(String name, Instant lockedAt, RunOutcome outcome, long acquireNanos, long runNanos) {
        if (listener == null) {
            return;
        }
        try {
            listener.onJobEvent(new JobEvent(namespace, name, lockedAt, nodeId, outcome, Duration.ofNanos(acquireNanos),
                    Duration.ofNanos(runNanos), -1, null));
        } catch (RuntimeException e) {
            log.warn("job-guard: listener {} failed on ShedLock lock '{}'", listener, name, e);
        }
    }

    static void requirePositive(Duration lockAtMostFor, String name) {
        TimeBounds.lease(lockAtMostFor, "lockAtMostFor of ShedLock lock '" + name + "'");
    }

    private static long millis(Duration d) {
        return Math.max(1, d.toMillis());
    }

    private <T> T call(Supplier<T> op, String what, String name) {
        try {
            return op.get();
        } catch (RuntimeException e) {
            throw new LockException("job-guard could not " + what + " ShedLock lock '" + name + "' in namespace '"
                    + namespace + "': " + RateLimitedLog.causeChain(e), e);
        }
    }

    /**
     * One lock held by this provider, as an actuator shows it.
     *
     * @param name            the ShedLock lock name
     * @param nodeId          this node
     * @param lockedAt        when it was taken or last extended, by the Redis server's clock
     * @param lockAtMostUntil when Redis drops it if nobody unlocks it
     * @param lockAtLeastUntil before this instant an unlock keeps it until then
     */
    public record HeldLock(String name, String nodeId, Instant lockedAt, Instant lockAtMostUntil,
                           Instant lockAtLeastUntil) {
    }

    /**
     * Settings of a {@link JobGuardLockProvider}; every setter validates its value at once. Not thread-safe.
     */
    public static final class Builder {
        private final RedisConnectionFactory connectionFactory;
        private String keyPrefix = "jobguard";
        private String namespace = JobGuardConfig.defaults().namespace();
        private NodeConfig node;
        private JobGuardListener listener;

        private Builder(RedisConnectionFactory connectionFactory) {
            this.connectionFactory = connectionFactory;
        }

        /**
         * Takes namespace and node from a job-guard configuration, so that the locks sit next
         * to the node's guarded jobs.
         *
         * @param config the node's job-guard configuration
         * @return this builder
         * @throws NullPointerException naming {@code config} when it is null
         */
        public Builder config(JobGuardConfig config) {
            Objects.requireNonNull(config, "config");
            this.namespace = config.namespace();
            this.node = config.node();
            return this;
        }

        /**
         * Sets the first segment of every key.
         *
         * @param keyPrefix one word of 1 to 200 characters without braces or control characters
         *                  (default {@code jobguard})
         * @return this builder
         * @throws IllegalArgumentException naming {@code JobGuardLockProvider keyPrefix} and the value when it
         *                                  breaks these rules
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Names.keyPrefix(keyPrefix, "JobGuardLockProvider keyPrefix");
            return this;
        }

        /**
         * Sets the namespace that isolates applications sharing one Redis.
         *
         * @param namespace one word of 1 to 200 characters without {@code :}, {@code ~}, {@code |},
         *                  braces or control characters (default {@code default})
         * @return this builder
         * @throws IllegalArgumentException naming {@code JobGuardLockProvider namespace} and the value when it
         *                                  breaks these rules
         */
        public Builder namespace(String namespace) {
            this.namespace = Names.namespace(namespace, "JobGuardLockProvider namespace");
            return this;
        }

        /**
         * Sets what identifies this node; its node id is recorded with every lock.
         *
         * @param node the node configuration (default {@link NodeConfig#defaults()})
         * @return this builder
         * @throws NullPointerException naming {@code node} when it is null
         */
        public Builder node(NodeConfig node) {
            this.node = Objects.requireNonNull(node, "node");
            return this;
        }

        /**
         * Sets a listener that receives one event per unlocked lock (RAN) and per refused attempt
         * (BUSY), for example job-guard's Micrometer binder.
         *
         * @param listener the listener, or null (the default) for none
         * @return this builder
         */
        public Builder listener(JobGuardListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * Builds the provider.
         *
         * @return the provider
         * @throws IllegalArgumentException if no node was set and this host's default node id breaks the name rules
         */
        public JobGuardLockProvider build() {
            if (node == null) {
                node = NodeConfig.defaults();
            }
            return new JobGuardLockProvider(this);
        }
    }
}
