package io.jobguard.benchmarks;

import io.jobguard.NodeConfig;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLockConfig;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.redis.batch.RedisBatchLocks;
import io.lettuce.core.api.sync.RedisCommands;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Batch locks on a 1-master vs a 3-master local Redis Cluster, in both key layouts: several
 * client threads lock and release batches of 3,000 random keys from a pool of a billion (so batches rarely
 * meet), and each master's Redis CPU ({@code INFO cpu}, user + system, idle rate subtracted) is read before
 * and after. What it reports does not depend on how many cores this machine has: each master's share of
 * the workload's Redis CPU, the total Redis CPU per batch key, and the throughput those project for M
 * masters (each master one core). Then, with {@code SLOWLOG} recording every command, a few 3,000-key
 * batches and one of 100,000 keys: the longest single Redis command.
 *
 * <p>Arguments: batches per configuration (default 1,000), client threads (default 4), output directory
 * (default {@code docs/benchmarks/data}). Writes {@code batch-masters.csv}
 * ({@code mode,masters,master,cpu_share,redis_usec_per_key}) and {@code slowlog.csv}
 * ({@code benchmark,max_command_us,command}); needs {@code redis-server} on PATH.
 */
public final class BatchMastersBenchmark {

    private static final int N = 3_000;
    private static final int BIG_N = 100_000;
    private static final long POOL = 1_000_000_000L;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration IDLE_SAMPLE = Duration.ofSeconds(2);

    private BatchMastersBenchmark() {
    }

    /** One configuration's measurement. */
    private record Result(String mode, int masters, double[] cpuShares, double usecPerKey, int acquired,
                          int refused, double seconds, CommandTimes batches, CommandTimes big) {
    }

    /**
     * Durations of the Redis commands in SLOWLOG (wall time inside Redis, so a server that the OS
     * descheduled mid-command shows it): the longest command of any kind with its name; the median, the
     * 99th percentile and the count over 5 ms of the script calls (the cluster client's own commands,
     * a few microseconds each, would hide them).
     */
    private record CommandTimes(long maxUs, String maxCommand, long p50Us, long p99Us, int over5ms, int count) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "longest %d us (%s); scripts: p50 %d us, p99 %d us, %d of %d over 5 ms", maxUs,
                    maxCommand, p50Us, p99Us, over5ms, count);
        }
    }

    /**
     * Runs every configuration and writes the CSV files.
     *
     * @param args batches, threads, output directory
     * @throws Exception if Redis cannot be started or a batch fails
     */
    public static void main(String[] args) throws Exception {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Path out = Path.of(args.length > 2 ? args[2] : "docs/benchmarks/data");
        List<Result> results = new ArrayList<>();
        for (int masters : new int[] {1, 3}) {
            for (String mode : new String[] {"hash", "spread"}) {
                Result r = run(mode, masters, batches, threads);
                results.add(r);
                System.out.printf(Locale.ROOT, "%-6s %d master(s): %d batches (%d refused) in %.1f s, %.3f Redis CPU "
                                + "usec/key, shares %s%n  3,000-key batches: %s%n  one 100,000-key batch: %s%n",
                        r.mode(), r.masters(), r.acquired(), r.refused(), r.seconds(), r.usecPerKey(),
                        shares(r.cpuShares()), r.batches(), r.big());
            }
        }
        write(out, results);
        report(results);
    }

    private static Result run(String mode, int masters, int batches, int threads) throws Exception {
        try (LocalRedisCluster cluster = LocalRedisCluster.start(masters)) {
            LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.nodes()));
            factory.afterPropertiesSet();
            factory.start();
            try (RedisBatchLocks locks = RedisBatchLocks.create(factory, "bench",
                    BatchLockConfig.builder().node(NodeConfig.builder().nodeId("bench").build())
                            .spread(mode.equals("spread")).maxKeys(BIG_N).build())) {
                List<RedisCommands<String, String>> admin = cluster.masters();
                runBatches(locks, Math.max(20, batches / 10), threads);
                double[] idleRate = RedisInfo.idleCpuRate(admin, IDLE_SAMPLE);
                double[] before = RedisInfo.cpuSeconds(admin);
                long start = System.nanoTime();
                int[] counts = runBatches(locks, batches, threads);
                double seconds = (System.nanoTime() - start) / 1e9;
                double[] after = RedisInfo.cpuSeconds(admin);
                double[] used = new double[masters];
                double total = 0;
                for (int i = 0; i < masters; i++) {
                    used[i] = Math.max(0, after[i] - before[i] - idleRate[i] * seconds);
                    total += used[i];
                }
                double[] shares = new double[masters];
                for (int i = 0; i < masters; i++) {
                    shares[i] = used[i] / total;
                }
                double usecPerKey = total * 1e6 / ((double) (counts[0] + counts[1]) * N);

                slowlogEveryCommand(admin);
                runBatches(locks, 20, threads);
                CommandTimes batchTimes = commandTimes(admin);
                slowlogEveryCommand(admin);
                try (BatchLease big = locks.tryAcquire("big", keys(BIG_N), LEASE).orElseThrow()) {
                    if (big.keyCount() != BIG_N) {
                        throw new IllegalStateException("the 100,000-key batch holds " + big.keyCount() + " keys");
                    }
                }
                CommandTimes bigTimes = commandTimes(admin);
                return new Result(mode, masters, shares, usecPerKey, counts[0], counts[1], seconds, batchTimes, bigTimes);
            } finally {
                factory.destroy();
            }
        }
    }

    /** Locks and releases {@code batches} random 3,000-key batches on {@code threads} threads: {acquired, refused}. */
    private static int[] runBatches(RedisBatchLocks locks, int batches, int threads) throws Exception {
        AtomicInteger left = new AtomicInteger(batches);
        AtomicInteger acquired = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                running.add(pool.submit(() -> {
                    while (left.getAndDecrement() > 0) {
                        BatchAttempt attempt = locks.tryAcquire("orders", keys(N), LEASE);
                        if (attempt.acquired()) {
                            attempt.orElseThrow().close();
                            acquired.incrementAndGet();
                        } else {
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(30, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        return new int[] {acquired.get(), refused.get()};
    }

    /** {@code n} distinct random keys of the pool. */
    private static Set<String> keys(int n) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Set<String> keys = new HashSet<>(n * 2);
        while (keys.size() < n) {
            keys.add("SKU-" + random.nextLong(POOL));
        }
        return keys;
    }

    private static void slowlogEveryCommand(List<RedisCommands<String, String>> admin) {
        for (RedisCommands<String, String> master : admin) {
            master.configSet("slowlog-log-slower-than", "0");
            master.configSet("slowlog-max-len", "100000");
            master.slowlogReset();
        }
    }

    /** The commands in every master's SLOWLOG (all of them: the threshold is 0), then the threshold back to 10 ms. */
    private static CommandTimes commandTimes(List<RedisCommands<String, String>> admin) {
        long max = -1;
        String command = "";
        List<Long> scripts = new ArrayList<>();
        for (RedisCommands<String, String> master : admin) {
            for (Object entry : master.slowlogGet(100_000)) {
                List<?> fields = (List<?>) entry;
                long micros = (Long) fields.get(2);
                List<?> argv = (List<?>) fields.get(3);
                String name = argv.isEmpty() ? "?" : argv.get(0).toString().toUpperCase(Locale.ROOT);
                if (name.equals("SLOWLOG") || name.equals("CONFIG")) {
                    continue;
                }
                if (name.startsWith("EVAL")) {
                    scripts.add(micros);
                }
                if (micros > max) {
                    max = micros;
                    command = name + (name.startsWith("EVAL") && argv.size() > 1 ? " " + scriptName(argv.get(1).toString()) : "");
                }
            }
            master.configSet("slowlog-log-slower-than", "10000");
        }
        Collections.sort(scripts);
        int over = (int) scripts.stream().filter(us -> us > 5_000).count();
        return new CommandTimes(max, command, percentile(scripts, 0.5), percentile(scripts, 0.99), over, scripts.size());
    }

    /**
     * The job-guard script of a SLOWLOG entry. EVALSHA's first argument is the script's SHA1. EVAL's (the fallback
     * after NOSCRIPT) is the script's text, which starts with the prelude every script shares and which SLOWLOG cuts
     * after 128 characters: it names no script, and is shown as one.
     */
    private static String scriptName(String sha1OrText) {
        for (String name : new String[] {"batch-acquire", "batch-release", "batch-renew", "batch-index"}) {
            if (LuaScript.load(name).sha1().equalsIgnoreCase(sha1OrText)) {
                return name + ".lua";
            }
        }
        return sha1OrText.matches("[0-9a-fA-F]{40}") ? sha1OrText : "(a script sent whole after NOSCRIPT)";
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.isEmpty() ? -1 : sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size())));
    }

    private static void write(Path out, List<Result> results) throws IOException {
        Files.createDirectories(out);
        StringBuilder masters = new StringBuilder("mode,masters,master,cpu_share,redis_usec_per_key\n");
        StringBuilder slowlog = new StringBuilder("benchmark,max_command_us,command\n");
        for (Result r : results) {
            for (int i = 0; i < r.masters(); i++) {
                masters.append(String.format(Locale.ROOT, "%s,%d,%d,%.4f,%.4f%n", r.mode(), r.masters(), i + 1,
                        r.cpuShares()[i], r.usecPerKey()));
            }
            String name = "batch-" + r.mode() + "-" + r.masters() + "m";
            slowlog.append(String.format(Locale.ROOT, "%s-n%d,%d,%s%n", name, N, r.batches().maxUs(),
                    r.batches().maxCommand()));
            slowlog.append(String.format(Locale.ROOT, "%s-n%d,%d,%s%n", name, BIG_N, r.big().maxUs(),
                    r.big().maxCommand()));
        }
        Files.writeString(out.resolve("batch-masters.csv"), masters);
        Files.writeString(out.resolve("slowlog.csv"), slowlog);
        System.out.println("wrote " + out.resolve("batch-masters.csv") + " and " + out.resolve("slowlog.csv"));
    }

    /** The ratios the issue asks for, and the throughput projected from CPU per key and the busiest master's share. */
    private static void report(List<Result> results) {
        Result hashOne = find(results, "hash", 1);
        Result spreadThree = find(results, "spread", 3);
        System.out.println();
        System.out.printf(Locale.ROOT, "spread on 3 masters: shares %s (target: each 25-42%%)%n",
                shares(spreadThree.cpuShares()));
        System.out.printf(Locale.ROOT, "Redis CPU per key, spread on 3 masters / hash on 1 master: %.2fx (target <= 1.5x)%n",
                spreadThree.usecPerKey() / hashOne.usecPerKey());
        System.out.println();
        System.out.println("projected throughput, each master one core at 100% (keys/s = 1e6 / (usec/key x busiest share)):");
        for (Result r : results) {
            double busiest = 0;
            for (double s : r.cpuShares()) {
                busiest = Math.max(busiest, s);
            }
            double keysPerSecond = 1e6 / (r.usecPerKey() * busiest);
            System.out.printf(Locale.ROOT, "  %-6s %d master(s): %,.0f keys/s = %,.0f batches of %d/s%n", r.mode(),
                    r.masters(), keysPerSecond, keysPerSecond / N, N);
        }
        for (int m : new int[] {6, 12}) {
            double keysPerSecond = m * 1e6 / spreadThree.usecPerKey();
            System.out.printf(Locale.ROOT, "  spread %d masters (3-master cost per key, even shares): %,.0f batches of %d/s%n",
                    m, keysPerSecond / N, N);
        }
    }

    private static Result find(List<Result> results, String mode, int masters) {
        return results.stream().filter(r -> r.mode().equals(mode) && r.masters() == masters).findFirst().orElseThrow();
    }

    private static String shares(double[] shares) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < shares.length; i++) {
            s.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f%%", shares[i] * 100));
        }
        return s.append(']').toString();
    }
}
