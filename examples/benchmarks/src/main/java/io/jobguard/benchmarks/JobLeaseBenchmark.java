package io.jobguard.benchmarks;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.NodeConfig;
import io.jobguard.redis.RedisLeaseStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One guarded run's lease overhead, acquire + release, uncontended, on loopback: job-guard's
 * {@code admit} + {@code finish} (one acquire script, one release script; keep-alive scheduled and
 * cancelled) beside ShedLock's Redis provider (lock + unlock) and the floor of a safe Redis lock
 * ({@code SET NX PX} + a compare-and-delete script). {@link Mode#SampleTime} reports p50 (median).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class JobLeaseBenchmark {

    private static final String UNLOCK = "if redis.call('GET', KEYS[1]) == ARGV[1] then "
            + "return redis.call('DEL', KEYS[1]) else return 0 end";

    private LettuceConnectionFactory factory;
    private RedisLeaseStore store;
    private JobGuard guard;
    private JobOptions job;
    private RedisLockProvider shedLock;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> redis;
    private long nominalFireTimeMillis;

    @Setup(Level.Trial)
    public void setUp() {
        factory = BenchRedis.springFactory();
        store = RedisLeaseStore.create(factory, "bench");
        guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("bench").build())
                .historySize(0)
                .skewTolerance(Duration.ofSeconds(1)).build());
        job = JobOptions.builder("bench-job", Duration.ofSeconds(30)).build();
        shedLock = new RedisLockProvider(factory, "bench");
        client = BenchRedis.lettuce();
        connection = client.connect();
        redis = connection.sync();
        nominalFireTimeMillis = System.currentTimeMillis();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        connection.close();
        client.shutdown();
        guard.close();
        store.close();
        factory.destroy();
    }

    /** job-guard: admit for a fresh fire time, then finish (release). */
    @Benchmark
    public Object jobGuard() {
        FiringPermit permit = guard.admit(job, Instant.ofEpochMilli(++nominalFireTimeMillis)).permit();
        return permit.finish(null);
    }

    /** ShedLock's Redis provider: lock, then unlock (lockAtLeastFor zero). */
    @Benchmark
    public Object shedLockRedis() {
        SimpleLock lock = shedLock.lock(new LockConfiguration(Instant.now(), "bench-shedlock",
                Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
        lock.unlock();
        return lock;
    }

    /** The floor: SET NX PX with a token, then compare-and-delete. */
    @Benchmark
    public Object safeLockFloor() {
        String token = UUID.randomUUID().toString();
        String ok = redis.set("bench-floor", token, SetArgs.Builder.nx().px(30_000));
        Long deleted = redis.eval(UNLOCK, ScriptOutputType.INTEGER, new String[] {"bench-floor"}, token);
        return ok + deleted;
    }
}
