package io.jobguard.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * job-guard's batch acquire + release of N keys beside the floors of {@link BatchLockBenchmark}, all in
 * one run on a {@code redis-server} of its own: per round every contender runs a few operations in a
 * rotating order, and for each the benchmark records the wall time per operation and the Redis CPU per
 * key ({@code used_cpu_user + used_cpu_sys} deltas of {@code INFO cpu}). The ratios are the medians over
 * the rounds of each round's ratio (the machine's speed moves between rounds, for every contender of a
 * round alike): job-guard's Redis CPU per key over the one-hash floor ({@code HSET} + {@code HDEL} of N
 * fields) and over the string floor ({@code MSETNX} + {@code DEL} of N keys), and its wall time over the
 * pipelined {@code SET NX PX} floor; also over the one-hash floor with the hash in hashtable encoding
 * from its first field on (no target). {@code jobGuardShared} is the same batch in a namespace where
 * another lease is live; {@code checkedHashFloor} ({@code HMGET} + {@code HSET} + {@code HDEL}) is what reading
 * the keys' holders before writing them costs at least, and {@code checkedScriptFloor} the same commands called
 * from scripts, as an all-or-nothing acquire must call them on Redis 7.0: the bounds for that case;
 * {@code checkedScriptFloorChunked} the same scripts called per 1,000 keys (job-guard's default chunk), which
 * prices splitting a batch into calls.
 *
 * <p>Arguments: N (default 3000), rounds (default 21), operations per contender and round (default 10),
 * output directory (default {@code docs/benchmarks/data}). Writes {@code batch-floors.csv}
 * ({@code contender,round,ms_per_op,redis_usec_per_key}), {@code batch-floors-summary.csv} (the medians
 * over the rounds) and {@code batch-floors-ratios.csv} ({@code ratio,target,measured}).
 */
public final class BatchFloors {

    private static final String JOB_GUARD = "jobGuard";
    private static final String SHARED = "jobGuardShared";
    private static final String HASH = "hashFloor";
    private static final String HASHTABLE = "hashtableFloor";
    private static final String MSETNX = "msetnxFloor";
    private static final String RAW = "rawFloor";
    private static final String CHECKED = "checkedHashFloor";
    private static final String CHECKED_SCRIPT = "checkedScriptFloor";
    private static final String CHECKED_CHUNKED = "checkedScriptFloorChunked";

    private BatchFloors() {
    }

    /**
     * Runs the measurement.
     *
     * @param args N, rounds, operations per contender and round, output directory
     * @throws Exception if a contender fails or a file cannot be written
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 21;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Path out = Path.of(args.length > 3 ? args[3] : "docs/benchmarks/data");
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        try (PrivateRedis redis = PrivateRedis.start()) {
            System.setProperty("jobguard.bench.port", Integer.toString(redis.port()));
            BatchLockBenchmark bench = new BatchLockBenchmark();
            bench.n = n;
            bench.setUp();
            RedisClient client = BenchRedis.lettuce();
            try (StatefulRedisConnection<String, String> info = client.connect()) {
                Map<String, Op> contenders = new LinkedHashMap<>();
                contenders.put(JOB_GUARD, bench::jobGuard);
                contenders.put(SHARED, bench::jobGuardShared);
                contenders.put(HASH, () -> bench.hashFloor(bh));
                contenders.put(HASHTABLE, () -> bench.hashtableFloor(bh));
                contenders.put(MSETNX, () -> bench.msetnxFloor(bh));
                contenders.put(RAW, () -> bench.rawFloor(bh));
                contenders.put(CHECKED, () -> bench.checkedHashFloor(bh));
                contenders.put(CHECKED_SCRIPT, () -> bench.checkedScriptFloor(bh));
                contenders.put(CHECKED_CHUNKED, () -> bench.checkedScriptFloorChunked(bh));
                for (Op op : contenders.values()) {
                    for (int r = 0; r < 3 * reps; r++) {
                        op.run();
                    }
                }
                List<String> names = new ArrayList<>(contenders.keySet());
                Map<String, List<double[]>> samples = new LinkedHashMap<>();
                StringBuilder csv = new StringBuilder("contender,round,ms_per_op,redis_usec_per_key\n");
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < names.size(); i++) {
                        String name = names.get((round + i) % names.size());
                        Op op = contenders.get(name);
                        double cpuBefore = RedisInfo.cpuMicros(info.sync().info("cpu"));
                        long start = System.nanoTime();
                        for (int r = 0; r < reps; r++) {
                            op.run();
                        }
                        double ms = (System.nanoTime() - start) / 1e6 / reps;
                        double cpuPerKey = (RedisInfo.cpuMicros(info.sync().info("cpu")) - cpuBefore) / ((double) reps * n);
                        samples.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {ms, cpuPerKey});
                        csv.append(String.format(Locale.ROOT, "%s,%d,%.4f,%.4f%n", name, round, ms, cpuPerKey));
                    }
                }
                Files.createDirectories(out);
                Files.writeString(out.resolve("batch-floors.csv"), csv);
                StringBuilder summary = new StringBuilder("contender,n,median_ms,median_redis_usec_per_key\n");
                for (String name : names) {
                    summary.append(String.format(Locale.ROOT, "%s,%d,%.4f,%.4f%n", name, n,
                            median(samples.get(name), s -> s[0]), median(samples.get(name), s -> s[1])));
                }
                Files.writeString(out.resolve("batch-floors-summary.csv"), summary);
                StringBuilder ratios = new StringBuilder("ratio,target,measured\n");
                for (String jg : List.of(JOB_GUARD, SHARED)) {
                    ratios.append(ratio(jg + " Redis CPU per key / " + HASH, "at most 1.2x",
                            ratios(samples.get(jg), samples.get(HASH), 1)));
                    ratios.append(ratio(jg + " Redis CPU per key / " + HASHTABLE, "",
                            ratios(samples.get(jg), samples.get(HASHTABLE), 1)));
                    ratios.append(ratio(jg + " Redis CPU per key / " + MSETNX, "at most 2x",
                            ratios(samples.get(jg), samples.get(MSETNX), 1)));
                    ratios.append(ratio(jg + " wall time / " + RAW + " (pipelined SET NX PX)", "at most 0.45x",
                            ratios(samples.get(jg), samples.get(RAW), 0)));
                }
                // Bounds: what reading the holders before writing costs on Redis 7.0, whatever the design
                ratios.append(ratio("bound: " + CHECKED + " Redis CPU per key / " + HASH, "",
                        ratios(samples.get(CHECKED), samples.get(HASH), 1)));
                ratios.append(ratio("bound: " + CHECKED + " Redis CPU per key / " + MSETNX, "",
                        ratios(samples.get(CHECKED), samples.get(MSETNX), 1)));
                ratios.append(ratio("bound: " + CHECKED_SCRIPT + " Redis CPU per key / " + HASH, "",
                        ratios(samples.get(CHECKED_SCRIPT), samples.get(HASH), 1)));
                ratios.append(ratio("bound: " + CHECKED_SCRIPT + " Redis CPU per key / " + MSETNX, "",
                        ratios(samples.get(CHECKED_SCRIPT), samples.get(MSETNX), 1)));
                ratios.append(ratio(SHARED + " Redis CPU per key / " + CHECKED_SCRIPT, "",
                        ratios(samples.get(SHARED), samples.get(CHECKED_SCRIPT), 1)));
                ratios.append(ratio("bound: " + CHECKED_CHUNKED + " Redis CPU per key / " + MSETNX, "",
                        ratios(samples.get(CHECKED_CHUNKED), samples.get(MSETNX), 1)));
                ratios.append(ratio(SHARED + " Redis CPU per key / " + CHECKED_CHUNKED, "",
                        ratios(samples.get(SHARED), samples.get(CHECKED_CHUNKED), 1)));
                Files.writeString(out.resolve("batch-floors-ratios.csv"), ratios);
                System.out.print(summary);
                System.out.print(ratios);
            } finally {
                client.shutdown();
                bench.tearDown();
            }
        }
    }

    /** Per round: the contender's value over the floor's (column 0 = wall time, 1 = Redis CPU per key). */
    private static List<Double> ratios(List<double[]> contender, List<double[]> floor, int column) {
        List<Double> out = new ArrayList<>();
        for (int round = 0; round < contender.size(); round++) {
            out.add(contender.get(round)[column] / floor.get(round)[column]);
        }
        return out;
    }

    private static String ratio(String name, String target, List<Double> perRound) {
        return String.format(Locale.ROOT, "%s,%s,%.2fx%n", name, target, median(perRound, d -> d));
    }

    private static <T> double median(List<T> values, java.util.function.ToDoubleFunction<T> f) {
        List<Double> sorted = new ArrayList<>();
        for (T v : values) {
            sorted.add(f.applyAsDouble(v));
        }
        Collections.sort(sorted);
        int size = sorted.size();
        return size % 2 == 1 ? sorted.get(size / 2) : (sorted.get(size / 2 - 1) + sorted.get(size / 2)) / 2;
    }

    /** A contender's one acquire + release. */
    @FunctionalInterface
    private interface Op {
        void run() throws Exception;
    }
}
