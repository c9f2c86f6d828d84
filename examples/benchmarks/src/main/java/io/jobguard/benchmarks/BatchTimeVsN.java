package io.jobguard.benchmarks;

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
 * Batch time vs N for every contender of {@link BatchLockBenchmark} (acquire + release of N keys,
 * uncontended, one caller), for a log-log chart: per N, several rounds in which the contenders take
 * turns in a rotating order (so drift on a shared machine hits them alike), each round timing a few
 * operations; the median over rounds of the time per operation. Arguments: rounds (default 5), output
 * file (default {@code docs/benchmarks/data/batch-n.csv}, columns {@code contender,n,median_ms}). Talks
 * to the Redis of {@link BenchRedis} (run-batch-bench.sh starts it).
 */
public final class BatchTimeVsN {

    private static final int[] SIZES = {10, 100, 1_000, 3_000, 10_000};

    private BatchTimeVsN() {
    }

    /**
     * Runs the measurement.
     *
     * @param args rounds and output file
     * @throws Exception if a contender fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path out = Path.of(args.length > 1 ? args[1] : "docs/benchmarks/data/batch-n.csv");
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        StringBuilder csv = new StringBuilder("contender,n,median_ms\n");
        for (int n : SIZES) {
            BatchLockBenchmark bench = new BatchLockBenchmark();
            bench.n = n;
            bench.setUp();
            try {
                Map<String, Op> contenders = new LinkedHashMap<>();
                contenders.put("jobGuard", bench::jobGuard);
                contenders.put("rawFloor", () -> bench.rawFloor(bh));
                contenders.put("redissonFastMultiLock", bench::redissonFastMultiLock);
                contenders.put("seed000PipelinedSetnxExpire", () -> bench.seed000PipelinedSetnxExpire(bh));
                contenders.put("lockRegistryLoop", bench::lockRegistryLoop);
                contenders.put("redissonMultiLock", bench::redissonMultiLock);
                List<String> names = new ArrayList<>(contenders.keySet());
                Map<String, List<Double>> perRound = new LinkedHashMap<>();
                int reps = Math.max(1, Math.min(100, 10_000 / n));
                // Warm-up: one round's worth of each (the first N also pays class loading and JIT).
                for (Op op : contenders.values()) {
                    for (int r = 0; r < reps; r++) {
                        op.run();
                    }
                }
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < names.size(); i++) {
                        String name = names.get((round + i) % names.size());
                        Op op = contenders.get(name);
                        long start = System.nanoTime();
                        for (int r = 0; r < reps; r++) {
                            op.run();
                        }
                        perRound.computeIfAbsent(name, k -> new ArrayList<>())
                                .add((System.nanoTime() - start) / 1e6 / reps);
                    }
                }
                for (String name : names) {
                    List<Double> times = perRound.get(name);
                    Collections.sort(times);
                    double median = times.get(times.size() / 2);
                    csv.append(String.format(Locale.ROOT, "%s,%d,%.4f%n", name, n, median));
                    System.out.printf(Locale.ROOT, "%-28s N=%-6d %10.3f ms%n", name, n, median);
                }
            } finally {
                bench.tearDown();
            }
        }
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, csv);
        System.out.println("wrote " + out);
    }

    /** A contender's one acquire + release. */
    @FunctionalInterface
    private interface Op {
        void run() throws Exception;
    }
}
