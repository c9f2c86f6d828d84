package io.jobguard.benchmarks;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.NodeConfig;
import io.jobguard.benchmarks.FiringContenders.Contender;
import io.jobguard.benchmarks.FiringRounds.Timed;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.TcpProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jobguard.benchmarks.FiringRounds.commandsPerFiring;
import static io.jobguard.benchmarks.FiringRounds.medians;
import static io.jobguard.benchmarks.FiringRounds.ratio;
import static io.jobguard.benchmarks.FiringRounds.roundOrder;
import static io.jobguard.benchmarks.FiringRounds.rows;
import static io.jobguard.benchmarks.FiringRounds.time;
import static io.jobguard.benchmarks.FiringRounds.warmUp;

/**
 * One guarded firing beside its peers: every contender takes and gives back one lock per
 * firing, uncontended, one caller, against one private {@code redis-server} this class starts on a
 * free loopback port. Rounds alternate the contenders' order; each round measures every contender's
 * client latency per firing ({@code System.nanoTime}) and the Redis server CPU per firing
 * ({@code used_cpu_user + used_cpu_sys} deltas of {@code INFO cpu}, which include network I/O).
 *
 * <p>Arguments: rounds (default 21), firings per round (default 1,000), output directory (default
 * {@code docs/benchmarks/data}). Writes {@code firing.csv} (one row per contender and round),
 * {@code firing-latency.csv} (the last round's latencies, at most 2,000 per contender),
 * {@code firing-summary.csv} (the medians over rounds) and {@code firing-ratios.csv} (the cost ratios
 * and their bounds, each the median over rounds of that round's ratio), and prints the last two.
 *
 * <p>With {@code --link-delay-ms D} the benchmark runs in link mode instead: every contender's Redis
 * connection goes through a {@link TcpProxy} that holds each request {@code D/2} ms and each reply
 * {@code D/2} ms (a round trip {@code D} ms longer; the {@code INFO} connection goes to Redis directly), and
 * every round measures two pacings. <em>Back to back</em>: each firing starts as soon as the previous one
 * returned, so job-guard's release of the previous firing (sent without waiting for its reply) is still in
 * flight when the next acquire is sent. <em>Period apart</em>: each firing starts {@code --gap-ms} (default
 * 20) after the previous one returned, so nothing is in flight; only the firing itself is timed.
 * {@code --apart-firings} (default 100) sets the firings per round of that pacing; the positional firings
 * are the back-to-back firings. The empty-script bound (a Redis CPU bound) is left out. Writes
 * {@code firing-link.csv} (one row per pacing, contender and round), {@code firing-link-summary.csv},
 * {@code firing-link-ratios.csv} and {@code firing-link-rtt.csv} (what one {@code PING} takes directly and
 * through the link, measured before the rounds); the loopback files are not touched. The Redis CPU column
 * is left empty for the period-apart pacing, where Redis' own idle work between firings would dominate it.
 */
public final class FiringBenchmark {

    private static final int LATENCY_ROWS = 2_000;

    private FiringBenchmark() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args rounds, firings per round, output directory; then optionally {@code --link-delay-ms D}
     *             (link mode), {@code --apart-firings N} and {@code --gap-ms G}
     * @throws Exception if Redis cannot be started or a contender fails
     */
    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        Double linkDelayMs = null;
        int apartFirings = 100;
        long gapMs = 20;
        boolean pacingSet = false;
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--link-delay-ms" -> linkDelayMs = Double.parseDouble(args[++a]);
                case "--apart-firings" -> {
                    apartFirings = Integer.parseInt(args[++a]);
                    pacingSet = true;
                }
                case "--gap-ms" -> {
                    gapMs = Long.parseLong(args[++a]);
                    pacingSet = true;
                }
                default -> positional.add(args[a]);
            }
        }
        if (pacingSet && linkDelayMs == null) {
            throw new IllegalArgumentException("--apart-firings and --gap-ms need --link-delay-ms");
        }
        int rounds = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : 21;
        int firings = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 1_000;
        Path out = Path.of(positional.size() > 2 ? positional.get(2) : "docs/benchmarks/data");
        try (PrivateRedis server = PrivateRedis.start()) {
            if (linkDelayMs == null) {
                run(server.port(), server.port(), rounds, firings, out, null);
            } else {
                FiringAcrossLink.Link link = new FiringAcrossLink.Link(linkDelayMs, apartFirings, gapMs);
                try (TcpProxy proxy = TcpProxy.start(BenchRedis.HOST, server.port())) {
                    proxy.delay(link.perDirection(), link.perDirection());
                    run(server.port(), proxy.port(), rounds, firings, out, link);
                }
            }
        }
    }

    /** Runs the contenders' connections to {@code clientPort}, the {@code INFO} connection to {@code port}. */
    private static void run(int port, int clientPort, int rounds, int firings, Path out, FiringAcrossLink.Link link) throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(BenchRedis.HOST, clientPort));
        factory.afterPropertiesSet();
        factory.start();
        RedisClient client = RedisClient.create(RedisURI.create(BenchRedis.HOST, clientPort));
        RedisClient infoClient = RedisClient.create(RedisURI.create(BenchRedis.HOST, port));
        Config redissonConfig = new Config();
        redissonConfig.useSingleServer().setAddress("redis://" + BenchRedis.HOST + ":" + clientPort);
        RedissonClient redisson = Redisson.create(redissonConfig);
        RedisLeaseStore store = RedisLeaseStore.create(factory, "bench");
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("bench")
                .build()).build());
        try (StatefulRedisConnection<String, String> benchConnection = client.connect();
             StatefulRedisConnection<String, String> infoConnection = infoClient.connect()) {
            Map<String, Contender> contenders = FiringContenders.create(benchConnection.sync(), guard, store, factory, redisson);
            if (link == null) {
                measure(contenders, infoConnection.sync(), rounds, firings, out);
            } else {
                contenders.remove("empty-script-evalsha");
                contenders.remove("floor-fenced-scripts");
                FiringAcrossLink.measure(contenders, benchConnection.sync(), infoConnection.sync(), link, rounds, firings, out);
            }
        } finally {
            guard.close();
            store.close();
            redisson.shutdown();
            client.shutdown();
            infoClient.shutdown();
            factory.destroy();
        }
    }

    private static void measure(Map<String, Contender> contenders, RedisCommands<String, String> info, int rounds, int firings,
                                Path out) throws Exception {
        List<String> order = new ArrayList<>(contenders.keySet());
        Map<String, Integer> next = warmUp(contenders, firings);
        List<String> csv = new ArrayList<>(List.of("contender,round,firings,median_us,p99_us,redis_usec_per_firing"));
        Map<String, List<double[]>> byContender = new LinkedHashMap<>();
        Map<String, long[]> lastRound = new LinkedHashMap<>();
        Map<String, String> commands = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (String name : roundOrder(order, round)) {
                if (round == rounds) {
                    info.configResetstat();
                }
                double cpuBefore = RedisInfo.cpuMicros(info.info("cpu"));
                Timed timed = time(contenders.get(name), next.get(name), firings, 0, true);
                double cpu = (RedisInfo.cpuMicros(info.info("cpu")) - cpuBefore) / firings;
                if (round == rounds) {
                    commands.put(name, commandsPerFiring(info.info("commandstats"), firings));
                }
                next.merge(name, firings, Integer::sum);
                rows(csv, byContender, lastRound, name, round, timed, String.format("%.2f", cpu));
            }
        }
        Files.createDirectories(out);
        Files.write(out.resolve("firing.csv"), csv);
        List<String> latencies = new ArrayList<>(List.of("contender,latency_us"));
        for (Map.Entry<String, long[]> e : lastRound.entrySet()) {
            long[] values = e.getValue();
            int step = Math.max(1, (values.length + LATENCY_ROWS - 1) / LATENCY_ROWS);
            for (int i = 0; i < values.length; i += step) {
                latencies.add(e.getKey() + "," + String.format("%.1f", values[i] / 1000.0));
            }
        }
        Files.write(out.resolve("firing-latency.csv"), latencies);
        summarize(byContender, out);
        System.out.println("Redis commands per firing in the last round (commands called from scripts included):");
        commands.forEach((name, line) -> System.out.printf("  %-28s %s%n", name, line));
    }

    /**
     * Prints the medians over rounds and the ratios, and writes them as {@code firing-summary.csv} and
     * {@code firing-ratios.csv} (the tables of docs/benchmarks.md; {@code firing.csv} keeps every round).
     */
    private static void summarize(Map<String, List<double[]>> byContender, Path out) throws IOException {
        List<String> summary = new ArrayList<>(List.of("contender,rounds,median_us,p99_us,redis_usec_per_firing"));
        summary.addAll(medians(byContender, ""));
        // On a shared machine the speed of the whole machine moves between rounds (we saw one contender's
        // median change 3x from one round to the next), and it moves for every contender of a round alike:
        // each ratio is taken within a round, and the median of those is the result
        System.out.println("ratios: the median over rounds of each round's ratio");
        List<String> ratios = new ArrayList<>(List.of("ratio,target,measured"));
        ratio(ratios, byContender, "scheduler-thread time / the two-round-trip floor", "jobguard-scheduler-thread", "floor-setnx-cad", 0, "at most 1.1x");
        ratio(ratios, byContender, "scheduler-thread time / ShedLock lock + unlock", "jobguard-scheduler-thread", "shedlock-default", 0, "");
        ratio(ratios, byContender, "Redis CPU per firing / Redisson RLock's", "jobguard-acquire-release", "redisson-rlock", 2, "at most 1x");
        ratio(ratios, byContender, "Redis CPU per firing / ShedLock's", "jobguard-acquire-release", "shedlock-default", 2, "at most 1.5x");
        ratio(ratios, byContender, "acquire + release / the two-round-trip floor", "jobguard-acquire-release", "floor-setnx-cad", 0, "");
        // Bounds: what the acquire script alone, or an empty script, cost against the targets' references
        ratio(ratios, byContender, "bound: one EVALSHA of the acquire script alone / ShedLock lock + unlock", "acquire-script-evalsha", "shedlock-default", 0, "");
        ratio(ratios, byContender, "bound: one EVALSHA of the acquire script alone / the floor", "acquire-script-evalsha", "floor-setnx-cad", 0, "");
        ratio(ratios, byContender, "bound: Redis CPU of the acquire script alone / ShedLock's whole firing", "acquire-script-evalsha", "shedlock-default", 2, "");
        ratio(ratios, byContender, "bound: Redis CPU of an empty script / of one plain command", "empty-script-evalsha", "one-command-set", 2, "");
        ratio(ratios, byContender, "bound: Redis CPU of the smallest fenced lock made of two scripts / ShedLock's", "floor-fenced-scripts", "shedlock-default", 2, "");
        ratio(ratios, byContender, "bound: Redis CPU of the smallest fenced lock made of two scripts / Redisson RLock's", "floor-fenced-scripts", "redisson-rlock", 2, "");
        ratio(ratios, byContender, "Redis CPU per firing / the smallest fenced lock made of two scripts", "jobguard-acquire-release", "floor-fenced-scripts", 2, "");
        // What accounting for every fire time costs a firing: the same JobGuard.fire with a misfire policy, in the same rounds
        ratio(ratios, byContender, "accounted firing time / plain firing time (JobGuard.fire)", "jobguard-fire-accounted", "jobguard-fire", 0, "");
        ratio(ratios, byContender, "accounted firing Redis CPU / plain firing Redis CPU (JobGuard.fire)", "jobguard-fire-accounted", "jobguard-fire", 2, "");
        Files.write(out.resolve("firing-summary.csv"), summary);
        Files.write(out.resolve("firing-ratios.csv"), ratios);
    }
}
