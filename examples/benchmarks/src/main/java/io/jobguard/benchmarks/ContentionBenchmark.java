package io.jobguard.benchmarks;

import io.jobguard.NodeConfig;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Contention: 8 threads take fail-fast batches of 100 keys drawn from a pool of 2,000 and release
 * them at once; the {@code acquired} counter is successful acquisitions per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(8)
public class ContentionBenchmark {

    private static final int POOL = 2_000;
    private static final int BATCH = 100;
    private static final Duration LEASE = Duration.ofSeconds(30);

    private LettuceConnectionFactory springFactory;
    private RedisBatchLocks jobGuard;
    private RedissonClient redisson;

    /** Per-thread counters JMH reports beside the score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long acquired;
        public long refused;

        @Setup(Level.Iteration)
        public void reset() {
            acquired = 0;
            refused = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        springFactory = BenchRedis.springFactory();
        jobGuard = RedisBatchLocks.create(springFactory, "bench", BatchLockConfig.builder().node(NodeConfig.builder()
                .nodeId("bench").build()).build());
        redisson = BenchRedis.redisson();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        jobGuard.close();
        redisson.shutdown();
        springFactory.destroy();
    }

    private static List<String> batch(String prefix) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<String> keys = new ArrayList<>(BATCH);
        while (keys.size() < BATCH) {
            String key = prefix + random.nextInt(POOL);
            if (!keys.contains(key)) {
                keys.add(key);
            }
        }
        return keys;
    }

    @Benchmark
    public void jobGuard(Outcomes outcomes) {
        BatchAttempt attempt = jobGuard.tryAcquire("contention", batch("k"), LEASE);
        if (attempt.acquired()) {
            attempt.orElseThrow().close();
            outcomes.acquired++;
        } else {
            outcomes.refused++;
        }
    }

    @Benchmark
    public void redissonMultiLock(Outcomes outcomes) throws InterruptedException {
        List<String> keys = batch("contention:k");
        RLock[] locks = new RLock[keys.size()];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = redisson.getLock(keys.get(i));
        }
        RedissonMultiLock multi = new RedissonMultiLock(locks);
        if (multi.tryLock(0, LEASE.toMillis(), TimeUnit.MILLISECONDS)) {
            multi.unlock();
            outcomes.acquired++;
        } else {
            outcomes.refused++;
        }
    }

    @Benchmark
    public void redissonFastMultiLock(Outcomes outcomes) throws InterruptedException {
        RLock multi = redisson.getMultiLock("contention-fast", new ArrayList<>(batch("k")));
        if (multi.tryLock(0, LEASE.toMillis(), TimeUnit.MILLISECONDS)) {
            multi.unlock();
            outcomes.acquired++;
        } else {
            outcomes.refused++;
        }
    }
}
