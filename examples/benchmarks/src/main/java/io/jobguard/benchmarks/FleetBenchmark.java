package io.jobguard.benchmarks;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fleet on one Redis: K simulated nodes, each its own {@link JobGuard} with its
 * own node id and its own Lettuce connection, all deciding the same J every-second jobs for S
 * consecutive fire times. Every node asks for every fire time of every job, as N identical instances
 * firing the same {@code @Scheduled} method do; exactly one wins each, the rest are refused.
 *
 * <p>Fire times are simulated, not waited for: the nodes walk through the next S seconds' fire
 * times as fast as Redis answers, so a run of K x J x S decisions takes seconds rather than S
 * seconds. They walk in step, as real nodes fire together within their clock skew: no node starts
 * the next second's fire times before every node has decided this second's. Redis decides with its own clock and the markers carry Redis TTLs, so what one decision
 * costs Redis is what it would cost at the real pace; only the number of markers alive at once is
 * higher than at the real pace (all S fire times' markers live at the same moment), which is why the
 * key count is also measured after the markers' TTL, where it must fall back to a bound that does
 * not grow with the number of fire times.
 *
 * <p>Per fleet size it reports: Redis CPU per decision ({@code INFO cpu} user + sys delta, which
 * includes network I/O), bytes on the wire per decision ({@code INFO stats}
 * {@code total_net_input_bytes + total_net_output_bytes}), the p50/p99 of one decision as the node
 * waits for it ({@link JobGuard#admit}), the key count once the markers' TTL has passed and the
 * Redis memory per job then ({@code MEMORY USAGE} over every key, divided by J), and the longest single Redis command
 * ({@code SLOWLOG}, threshold 1 ms, the benchmark's own INFO/CONFIG calls left out: 0 means none
 * took 1 ms). It also checks that every fire time was
 * granted exactly once in the fleet.
 *
 * <p>Arguments: fleet sizes (default {@code 2x1000,20x500,50x1000}), decisions per size (default 200,000;
 * S = decisions / (K x J), at least 2: the 2 x 1,000 fleet decides 100,000 fire times), output directory (default {@code docs/benchmarks/data}).
 * Writes {@code fleet.csv}.
 */
public final class FleetBenchmark {

    /** The fleet.csv header; {@link BenchmarkReport} reads these columns by name. */
    static final String HEADER = "nodes,jobs,decisions,redis_usec_per_decision,bytes_per_decision,p50_us,p99_us,"
            + "memory_bytes_per_job,keys_after,slowlog_max_us";

    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Set<String> ADMIN_COMMANDS = Set.of("INFO", "CONFIG", "SLOWLOG", "TIME");
    /**
     * The nodes walk the fire times in step (a barrier per simulated second), so they are never more
     * than one step apart; the skew tolerance, which keeps each marker alive, must cover that step.
     */
    static final Duration SKEW_TOLERANCE = Duration.ofSeconds(10);

    private FleetBenchmark() {
    }

    /**
     * Runs the benchmark on a private {@code redis-server} per fleet size.
     *
     * @param args fleet sizes, decisions per size, output directory
     * @throws Exception if Redis cannot be started or a decision fails
     */
    public static void main(String[] args) throws Exception {
        List<int[]> sizes = parseSizes(args.length > 0 ? args[0] : "2x1000,20x500,50x1000");
        long decisions = args.length > 1 ? Long.parseLong(args[1]) : 200_000;
        Path out = Path.of(args.length > 2 ? args[2] : "docs/benchmarks/data");
        List<String> rows = new ArrayList<>();
        for (int[] size : sizes) {
            try (PrivateRedis redis = PrivateRedis.start()) {
                FleetResult result = measure(BenchRedis.HOST, redis.port(), size[0], size[1], decisions, SKEW_TOLERANCE);
                rows.add(result.csv());
                System.out.println(result);
            }
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("fleet.csv"), HEADER + "\n" + String.join("\n", rows) + "\n");
        System.out.println("wrote " + out.resolve("fleet.csv"));
    }

    static List<int[]> parseSizes(String text) {
        List<int[]> sizes = new ArrayList<>();
        for (String size : text.split(",")) {
            String[] parts = size.trim().split("x");
            if (parts.length != 2) {
                throw new IllegalArgumentException("fleet size '" + size + "' is not <nodes>x<jobs>, e.g. 20x500");
            }
            sizes.add(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
        }
        return sizes;
    }

    /**
     * One fleet size against the Redis at host:port, which must be empty and private to the run.
     *
     * @param host      Redis host
     * @param port      Redis port
     * @param nodes     K, simulated nodes
     * @param jobs      J, every-second jobs
     * @param decisions how many decisions to make in all (K x J x S, S at least 2)
     * @param skewTolerance the nodes' skew tolerance: it must exceed the time one simulated second takes
     * @return the measurements
     * @throws Exception if a node fails
     */
    static FleetResult measure(String host, int port, int nodes, int jobs, long decisions, Duration skewTolerance)
            throws Exception {
        int seconds = (int) Math.max(2, decisions / ((long) nodes * jobs));
        RedisClient client = RedisClient.create(RedisURI.create(host, port));
        List<Node> fleet = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try (StatefulRedisConnection<String, String> info = client.connect()) {
            RedisCommands<String, String> redis = info.sync();
            redis.configSet("slowlog-log-slower-than", "1000");
            redis.slowlogReset();
            for (int k = 0; k < nodes; k++) {
                fleet.add(new Node(host, port, "node-" + k, skewTolerance));
            }
            List<JobOptions> jobOptions = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                jobOptions.add(JobOptions.builder("job-" + j, LEASE).keepAlive(false).build());
            }
            // Fire times start at the next whole second after Redis's clock and go forward one second at a time.
            long first = (Long.parseLong(redis.time().get(0)) + 1) * 1000;
            redis.configResetstat();
            double cpuBefore = RedisInfo.cpuMicros(redis.info("cpu"));
            long bytesBefore = RedisInfo.netBytes(redis.info("stats"));
            AtomicLong granted = new AtomicLong();
            long[][] latencies = new long[nodes][];
            CyclicBarrier step = new CyclicBarrier(nodes);
            List<Future<?>> done = new ArrayList<>();
            for (int k = 0; k < nodes; k++) {
                int node = k;
                done.add(pool.submit(() -> {
                    latencies[node] = fleet.get(node).decide(jobOptions, first, seconds, granted, step);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            long made = (long) nodes * jobs * seconds;
            double cpu = (RedisInfo.cpuMicros(redis.info("cpu")) - cpuBefore) / made;
            double bytes = (double) (RedisInfo.netBytes(redis.info("stats")) - bytesBefore) / made;
            if (granted.get() != (long) jobs * seconds) {
                throw new IllegalStateException("the fleet granted " + granted.get() + " runs for " + (long) jobs * seconds
                        + " fire times: each fire time must run exactly once");
            }
            long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
            long slowest = slowlogMaxMicros(redis);
            long keysAfterTtl = keysAfterMarkersExpire(redis, jobs);
            double memoryPerJob = (double) memoryOfAllKeys(redis) / jobs;
            return new FleetResult(nodes, jobs, made, cpu, bytes, all[all.length / 2] / 1000.0,
                    all[(int) (all.length * 0.99)] / 1000.0, memoryPerJob, keysAfterTtl, slowest);
        } finally {
            for (Node node : fleet) {
                node.close();
            }
            pool.shutdownNow();
            client.shutdown();
        }
    }

    private static long memoryOfAllKeys(RedisCommands<String, String> redis) {
        long bytes = 0;
        for (String key : redis.keys("*")) {
            Long usage = redis.memoryUsage(key);
            bytes += usage == null ? 0 : usage;
        }
        return bytes;
    }

    /**
     * Waits until the fire-time markers and leases have expired by their TTL (lease + skew tolerance
     * here) and returns the key count then; fails if keys without a TTL grow with the fire times.
     */
    private static long keysAfterMarkersExpire(RedisCommands<String, String> redis, int jobs) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long previous = -1;
        while (System.nanoTime() < deadline) {
            long keys = redis.dbsize();
            if (keys == previous && redis.keys("*:fired:*").isEmpty()) {
                return keys;
            }
            previous = keys;
            // The markers' TTL is a few seconds here; poll at a coarse pace, the result does not depend on it.
            Thread.sleep(500);
        }
        throw new IllegalStateException("fire-time markers still present 60 s after the run: "
                + redis.keys("*:fired:*").size() + " of them, for " + jobs + " jobs");
    }

    /** The longest command of the run in SLOWLOG, leaving out the benchmark's own INFO/CONFIG/SLOWLOG calls. */
    private static long slowlogMaxMicros(RedisCommands<String, String> redis) {
        long max = 0;
        for (Object entry : redis.slowlogGet(1024)) {
            if (entry instanceof List<?> fields && fields.size() > 3 && fields.get(2) instanceof Long micros
                    && fields.get(3) instanceof List<?> command && !command.isEmpty()
                    && !ADMIN_COMMANDS.contains(String.valueOf(command.get(0)).toUpperCase(Locale.ROOT))) {
                max = Math.max(max, micros);
            }
        }
        return max;
    }

    /** One simulated node ({@link GuardNode}) walking the fire times. */
    private static final class Node implements AutoCloseable {
        private final GuardNode node;

        Node(String host, int port, String nodeId, Duration skewTolerance) {
            node = new GuardNode(new RedisStandaloneConfiguration(host, port), "fleet", nodeId, skewTolerance);
        }

        /** Decides every job's fire time for each of the seconds; returns the decision latencies (ns). */
        long[] decide(List<JobOptions> jobs, long firstMillis, int seconds, AtomicLong granted, CyclicBarrier step)
                throws InterruptedException, BrokenBarrierException {
            JobGuard guard = node.guard();
            long[] nanos = new long[jobs.size() * seconds];
            int i = 0;
            for (int s = 0; s < seconds; s++) {
                // Real nodes fire each second at about the same moment (within their clock skew), not
                // seconds apart: no node starts second s + 1 before every node has decided second s.
                step.await();
                Instant nominalFireTime = Instant.ofEpochMilli(firstMillis + s * 1000L);
                for (JobOptions job : jobs) {
                    long t0 = System.nanoTime();
                    Admission admission = guard.admit(job, nominalFireTime);
                    nanos[i++] = System.nanoTime() - t0;
                    if (admission.granted()) {
                        granted.incrementAndGet();
                        admission.permit().finish(null);
                    }
                }
            }
            return nanos;
        }

        @Override
        public void close() {
            node.close();
        }
    }

    /**
     * One row of fleet.csv.
     *
     * @param nodes                K
     * @param jobs                 J
     * @param decisions            K x J x S
     * @param redisUsecPerDecision Redis CPU (user + sys) per decision, µs
     * @param bytesPerDecision     bytes in and out of Redis per decision
     * @param p50Us                median decision latency as the node waited for it, µs
     * @param p99Us                99th percentile of the same, µs
     * @param memoryBytesPerJob    MEMORY USAGE of every key once the markers' TTL has passed, divided by J
     * @param keysAfter            DBSIZE once the markers' TTL has passed
     * @param slowlogMaxUs         the longest single command (SLOWLOG, threshold 1 ms; 0 if none)
     */
    record FleetResult(int nodes, int jobs, long decisions, double redisUsecPerDecision, double bytesPerDecision,
                       double p50Us, double p99Us, double memoryBytesPerJob, long keysAfter, long slowlogMaxUs) {

        String csv() {
            return String.format(Locale.ROOT, "%d,%d,%d,%.2f,%.1f,%.1f,%.1f,%.0f,%d,%d", nodes, jobs, decisions,
                    redisUsecPerDecision, bytesPerDecision, p50Us, p99Us, memoryBytesPerJob, keysAfter, slowlogMaxUs);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d nodes x %d jobs: %d decisions, Redis CPU %.2f µs and %.0f bytes per "
                            + "decision, latency p50 %.0f µs p99 %.0f µs, %.0f bytes of Redis memory per job, %d keys "
                            + "after the markers' TTL, longest command %d µs", nodes, jobs, decisions,
                    redisUsecPerDecision, bytesPerDecision, p50Us, p99Us, memoryBytesPerJob, keysAfter, slowlogMaxUs);
        }
    }
}
