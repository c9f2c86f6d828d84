package io.jobguard.benchmarks;

import io.jobguard.NodeConfig;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Acquire and release N keys, uncontended, one caller: job-guard's batch locks beside Redisson's
 * {@code RedissonMultiLock} and fast multi-lock ({@code getMultiLock(group, values)}), a one-by-one
 * Spring Integration {@code RedisLockRegistry} loop, the pipelined SETNX + EXPIRE of seed 000, and
 * floors without any of a lock's safety: the raw floor (one pipeline of N {@code SET ... NX PX} plus one
 * {@code DEL}), the one-hash floor (one {@code HSET} of N fields plus one {@code HDEL} of them), the same
 * with the hash in hashtable encoding from its first field on (as job-guard keeps its hash), and the
 * string floor (one {@code MSETNX} of N keys plus one {@code DEL} of them).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class BatchLockBenchmark {

    private static final Duration LEASE = Duration.ofSeconds(30);
    /** The floors' value per key: as long as job-guard's owner token (a UUID), which it stores per key. */
    private static final String OWNER = UUID.randomUUID().toString();
    /** ARGV: owner, the hashtable marker's value, the keys. Reads the keys' holders, then sets the keys (and the marker). */
    private static final String CHECKED_ACQUIRE = """
            local SLICE, n = 1000, #ARGV
            for from = 3, n, SLICE do
              redis.call('HMGET', KEYS[1], unpack(ARGV, from, math.min(from + SLICE - 1, n)))
            end
            local args, k = {'', ARGV[2]}, 2
            for from = 3, n, SLICE do
              for i = from, math.min(from + SLICE - 1, n) do
                args[k + 1] = ARGV[i]
                args[k + 2] = ARGV[1]
                k = k + 2
              end
              redis.call('HSET', KEYS[1], unpack(args, 1, k))
              k = 0
            end
            return 1
            """;
    /** ARGV: the fields to delete. */
    private static final String CHECKED_RELEASE = """
            local SLICE, n, deleted = 1000, #ARGV, 0
            for from = 1, n, SLICE do
              deleted = deleted + redis.call('HDEL', KEYS[1], unpack(ARGV, from, math.min(from + SLICE - 1, n)))
            end
            return deleted
            """;

    @Param({"10", "100", "1000", "3000", "10000"})
    public int n;

    private LettuceConnectionFactory springFactory;
    private RedisBatchLocks jobGuard;
    private RedisClient lettuce;
    private StatefulRedisConnection<String, String> connection;
    private RedissonClient redisson;
    private RedisLockRegistry registry;
    private List<String> jobGuardKeys;
    private List<String> floorKeys;
    private String[] floorKeyArray;
    private List<String> seedKeys;
    private String[] seedKeyArray;
    private List<String> redissonKeys;
    private List<Object> fastKeys;
    private List<String> registryKeys;
    private String[] hashFloorFields;
    private Map<String, String> hashFloorEntries;
    private String[] hashtableFloorFields;
    private Map<String, String> hashtableFloorEntries;
    private Map<String, String> msetnxEntries;
    private String[] msetnxKeyArray;
    private BatchLease sharedHolder;
    private String checkedAcquireSha;
    private String checkedReleaseSha;
    private String[] checkedScriptArgs;

    @Setup(Level.Trial)
    public void setUp() {
        springFactory = BenchRedis.springFactory();
        jobGuard = RedisBatchLocks.create(springFactory, "bench", BatchLockConfig.builder().node(NodeConfig.builder()
                .nodeId("bench").build()).build());
        lettuce = BenchRedis.lettuce();
        connection = lettuce.connect();
        redisson = BenchRedis.redisson();
        // A fresh registry key per trial: unlocks the previous fork left in flight (the registry unlocks
        // in the background) must not make this trial's keys look taken.
        registry = new RedisLockRegistry(springFactory, "bench-registry-" + UUID.randomUUID(), LEASE);
        jobGuardKeys = BenchRedis.keys("SKU-", n);
        floorKeys = BenchRedis.keys("floor:SKU-", n);
        floorKeyArray = floorKeys.toArray(String[]::new);
        seedKeys = BenchRedis.keys("seed:SKU-", n);
        seedKeyArray = seedKeys.toArray(String[]::new);
        redissonKeys = BenchRedis.keys("redisson:SKU-", n);
        fastKeys = new ArrayList<>(BenchRedis.keys("SKU-", n));
        registryKeys = BenchRedis.keys("SKU-", n);
        hashFloorFields = BenchRedis.keys("SKU-", n).toArray(String[]::new);
        hashFloorEntries = new LinkedHashMap<>();
        for (String field : hashFloorFields) {
            hashFloorEntries.put(field, OWNER);
        }
        // A first field whose value is longer than hash-max-listpack-value (64 bytes) makes Redis start the
        // hash in hashtable encoding, as job-guard's marker field does.
        hashtableFloorEntries = new LinkedHashMap<>();
        hashtableFloorEntries.put("", "x".repeat(89));
        hashtableFloorEntries.putAll(hashFloorEntries);
        hashtableFloorFields = hashtableFloorEntries.keySet().toArray(String[]::new);
        msetnxKeyArray = BenchRedis.keys("msetnx:SKU-", n).toArray(String[]::new);
        msetnxEntries = new LinkedHashMap<>();
        for (String key : msetnxKeyArray) {
            msetnxEntries.put(key, OWNER);
        }
        checkedAcquireSha = connection.sync().scriptLoad(CHECKED_ACQUIRE);
        checkedReleaseSha = connection.sync().scriptLoad(CHECKED_RELEASE);
        List<String> checkedArgs = new ArrayList<>(List.of(OWNER, hashtableFloorEntries.get("")));
        checkedArgs.addAll(hashFloorEntries.keySet());
        checkedScriptArgs = checkedArgs.toArray(String[]::new);
        // As beside job-guard's other live lease, the checked floors' hash keeps another holder's key (and the
        // marker) between batches: it never empties, so Redis shrinks and regrows its table as for job-guard's
        connection.sync().hset("floor-checked", Map.of("", hashtableFloorEntries.get(""), "OTHER-LEASE-KEY", OWNER));
        connection.sync().hset("floor-checked-script", Map.of("", hashtableFloorEntries.get(""), "OTHER-LEASE-KEY", OWNER));
        connection.sync().hset("floor-checked-chunked", Map.of("", hashtableFloorEntries.get(""), "OTHER-LEASE-KEY", OWNER));
        // jobGuardShared's namespace always has one other live lease, on a key no batch asks for.
        sharedHolder = jobGuard.tryAcquire("bench-shared", List.of("OTHER-LEASE-KEY"), Duration.ofMinutes(30))
                .orElseThrow();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sharedHolder.close();
        registry.destroy();
        jobGuard.close();
        connection.close();
        lettuce.shutdown();
        redisson.shutdown();
        springFactory.destroy();
    }

    @Benchmark
    public long jobGuard() {
        try (BatchLease lease = jobGuard.tryAcquire("bench", jobGuardKeys, LEASE).orElseThrow()) {
            return lease.fencingToken();
        }
    }

    /**
     * The same batch in a namespace where another lease is live (on a key no batch asks for): the
     * namespace's hash then holds keys of two leases, so every chunk checks its keys one by one.
     */
    @Benchmark
    public long jobGuardShared() {
        try (BatchLease lease = jobGuard.tryAcquire("bench-shared", jobGuardKeys, LEASE).orElseThrow()) {
            return lease.fencingToken();
        }
    }

    @Benchmark
    public void rawFloor(Blackhole bh) throws Exception {
        RedisAsyncCommands<String, String> async = connection.async();
        SetArgs px = SetArgs.Builder.nx().px(LEASE.toMillis());
        List<RedisFuture<String>> replies = new ArrayList<>(n);
        connection.setAutoFlushCommands(false);
        try {
            for (String key : floorKeys) {
                replies.add(async.set(key, "owner", px));
            }
            connection.flushCommands();
        } finally {
            connection.setAutoFlushCommands(true);
        }
        for (RedisFuture<String> reply : replies) {
            bh.consume(reply.get());
        }
        bh.consume(connection.sync().del(floorKeyArray));
    }

    /** The one-hash floor: every key a field of one hash, set in one HSET and deleted in one HDEL. */
    @Benchmark
    public void hashFloor(Blackhole bh) {
        bh.consume(connection.sync().hset("floor-hash", hashFloorEntries));
        bh.consume(connection.sync().hdel("floor-hash", hashFloorFields));
    }

    /**
     * The least a batch that must not take keys another live lease holds costs Redis 7.0 beside such a lease:
     * the holders read ({@code HMGET}), then the one-hash floor in hashtable encoding. Redis 7.0 has no
     * command that sets many fields only where none is held (Redis 8.0's {@code HSETEX FNX}); {@code HSETNX}
     * takes one field per call. The hash keeps another holder's key and the marker between batches, as job-guard's
     * does beside another live lease. Plain commands, not atomic: a bound, not a lock ({@link BatchFloors} only).
     *
     * @param bh consumes the replies
     */
    public void checkedHashFloor(Blackhole bh) {
        bh.consume(connection.sync().hmget("floor-checked", hashFloorFields));
        bh.consume(connection.sync().hset("floor-checked", hashtableFloorEntries));
        bh.consume(connection.sync().hdel("floor-checked", hashFloorFields));
    }

    /**
     * {@link #checkedHashFloor} made atomic the only way Redis 7.0 offers: the same three commands called from
     * scripts (the read and the write in one, the delete in another), in slices of 1,000 keys as job-guard's
     * scripts call them. What a command called from a script costs beyond the command itself is the
     * difference to {@link #checkedHashFloor} ({@link BatchFloors} only).
     *
     * @param bh consumes the replies
     */
    public void checkedScriptFloor(Blackhole bh) {
        bh.consume(connection.sync().evalsha(checkedAcquireSha, ScriptOutputType.INTEGER, new String[] {"floor-checked-script"},
                checkedScriptArgs));
        bh.consume(connection.sync().evalsha(checkedReleaseSha, ScriptOutputType.INTEGER, new String[] {"floor-checked-script"},
                hashFloorFields));
    }

    /**
     * {@link #checkedScriptFloor} in calls of at most job-guard's default chunk size (1,000 keys): each acquire
     * call reads and writes its slice, then each release call deletes its slice, as job-guard's chunks do beside
     * another live lease. What splitting a batch into calls costs Redis, whatever the calls do, is the
     * difference to {@link #checkedScriptFloor} ({@link BatchFloors} only).
     *
     * @param bh consumes the replies
     */
    public void checkedScriptFloorChunked(Blackhole bh) {
        int chunk = BatchLockConfig.defaults().chunkSize();
        String[] key = {"floor-checked-chunked"};
        for (int from = 0; from < hashFloorFields.length; from += chunk) {
            // owner and marker (checkedScriptArgs' first two), then this chunk's fields
            String[] args = Arrays.copyOfRange(checkedScriptArgs, from, Math.min(from + chunk, hashFloorFields.length) + 2);
            args[0] = checkedScriptArgs[0];
            args[1] = checkedScriptArgs[1];
            bh.consume(connection.sync().evalsha(checkedAcquireSha, ScriptOutputType.INTEGER, key, args));
        }
        for (int from = 0; from < hashFloorFields.length; from += chunk) {
            bh.consume(connection.sync().evalsha(checkedReleaseSha, ScriptOutputType.INTEGER, key,
                    Arrays.copyOfRange(hashFloorFields, from, Math.min(from + chunk, hashFloorFields.length))));
        }
    }

    /**
     * The one-hash floor with the hash in hashtable encoding from its first field on: Redis 7.0 starts a
     * hash in listpack encoding when no value is longer than 64 bytes, and converts it only once it
     * passes 128 fields, which costs the plain one-hash floor about as much again.
     */
    @Benchmark
    public void hashtableFloor(Blackhole bh) {
        bh.consume(connection.sync().hset("floor-hashtable", hashtableFloorEntries));
        bh.consume(connection.sync().hdel("floor-hashtable", hashtableFloorFields));
    }

    /** The string floor: every key its own string, set all or nothing in one MSETNX and deleted in one DEL. */
    @Benchmark
    public void msetnxFloor(Blackhole bh) {
        if (!connection.sync().msetnx(msetnxEntries)) {
            throw new IllegalStateException("MSETNX found a key taken");
        }
        bh.consume(connection.sync().del(msetnxKeyArray));
    }

    /** Seed 000: pipelined SETNX, then one EXPIRE round trip per key taken, release = DEL of all. */
    @Benchmark
    public void seed000PipelinedSetnxExpire(Blackhole bh) throws Exception {
        RedisAsyncCommands<String, String> async = connection.async();
        List<RedisFuture<Boolean>> replies = new ArrayList<>(n);
        String value = Long.toString(System.currentTimeMillis());
        connection.setAutoFlushCommands(false);
        try {
            for (String key : seedKeys) {
                replies.add(async.setnx(key, value));
            }
            connection.flushCommands();
        } finally {
            connection.setAutoFlushCommands(true);
        }
        for (int i = 0; i < n; i++) {
            if (replies.get(i).get()) {
                bh.consume(connection.sync().pexpire(seedKeys.get(i), LEASE.toMillis()));
            }
        }
        bh.consume(connection.sync().del(seedKeyArray));
    }

    @Benchmark
    public void redissonMultiLock() {
        RLock[] locks = new RLock[n];
        for (int i = 0; i < n; i++) {
            locks[i] = redisson.getLock(redissonKeys.get(i));
        }
        RedissonMultiLock multi = new RedissonMultiLock(locks);
        multi.lock(LEASE.toMillis(), TimeUnit.MILLISECONDS);
        multi.unlock();
    }

    @Benchmark
    public void redissonFastMultiLock() {
        RLock multi = redisson.getMultiLock("bench-fast", fastKeys);
        multi.lock(LEASE.toMillis(), TimeUnit.MILLISECONDS);
        multi.unlock();
    }

    @Benchmark
    public void lockRegistryLoop() throws InterruptedException {
        List<Lock> held = new ArrayList<>(n);
        for (String key : registryKeys) {
            Lock lock = registry.obtain(key);
            // RedisLockRegistry unlocks in the background: allow the previous operation's unlock to land.
            if (!lock.tryLock(1, TimeUnit.SECONDS)) {
                throw new IllegalStateException("uncontended key " + key + " was not free");
            }
            held.add(lock);
        }
        for (Lock lock : held) {
            lock.unlock();
        }
    }
}
