package io.jobguard.benchmarks;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.JobPermit;
import io.jobguard.NodeConfig;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.testing.TcpProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

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

    private static final String UNLOCK = "if redis.call('GET', KEYS[1]) == ARGV[1] then "
            + "return redis.call('DEL', KEYS[1]) else return 0 end";
    /**
     * The least a fenced lock made of scripts does: take the lease with {@code SET NX PX} and the next fencing
     * token with {@code INCR}, in one script (a plain pipeline could hand out a token without the lease).
     */
    private static final String FENCED_LOCK = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then "
            + "return redis.call('INCR', KEYS[2]) else return 0 end";
    private static final int LATENCY_ROWS = 2_000;
    private static final String BACK_TO_BACK = "back-to-back";
    private static final String PERIOD_APART = "period-apart";
    private static final int RTT_PINGS = 1_000;

    private final RedisCommands<String, String> redis;
    private final Map<String, Contender> contenders = new LinkedHashMap<>();

    private FiringBenchmark(RedisCommands<String, String> redis) {
        this.redis = redis;
    }

    /** One contender: one firing per call; parts it reports besides its whole latency. */
    private interface Contender {
        void fire(int i, long[][] partLatencies) throws Exception;

        /**
         * Untimed, after each firing: brings the contender to where the next firing of a real schedule
         * finds it (nothing by default).
         */
        default void settle() {
        }
    }

    /**
     * The delayed link's settings.
     *
     * @param delayMs      the round trip the link adds, split evenly between requests and replies
     * @param apartFirings firings per round of the period-apart pacing
     * @param gapMs        the pause before each period-apart firing
     */
    private record Link(double delayMs, int apartFirings, long gapMs) {
        Duration perDirection() {
            return Duration.ofNanos(Math.round(delayMs * 1_000_000 / 2));
        }
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
                Link link = new Link(linkDelayMs, apartFirings, gapMs);
                try (TcpProxy proxy = TcpProxy.start(BenchRedis.HOST, server.port())) {
                    proxy.delay(link.perDirection(), link.perDirection());
                    run(server.port(), proxy.port(), rounds, firings, out, link);
                }
            }
        }
    }

    /** Runs the contenders' connections to {@code clientPort}, the {@code INFO} connection to {@code port}. */
    private static void run(int port, int clientPort, int rounds, int firings, Path out, Link link) throws Exception {
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
            FiringBenchmark bench = new FiringBenchmark(benchConnection.sync());
            bench.addContenders(guard, store, factory, redisson);
            if (link == null) {
                bench.measure(infoConnection.sync(), rounds, firings, out);
            } else {
                bench.contenders.remove("empty-script-evalsha");
                bench.contenders.remove("floor-fenced-scripts");
                bench.measureLink(infoConnection.sync(), link, rounds, firings, out);
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

    private void addContenders(JobGuard guard, RedisLeaseStore store, LettuceConnectionFactory factory,
                               RedissonClient redisson) {
        long start = System.currentTimeMillis() - Duration.ofDays(1).toMillis();
        JobOptions job = JobOptions.builder("bench-job", Duration.ofSeconds(30)).build();
        contenders.put("jobguard-scheduler-thread", new Contender() {
            @Override
            public void fire(int i, long[][] part) {
                long t0 = System.nanoTime();
                JobPermit permit = guard.admit(job, Instant.ofEpochMilli(start + i)).permit();
                part[0][i] = System.nanoTime() - t0;
                permit.finish(null);
            }

            /**
             * finish() writes the release to the store's shared connection and returns without waiting
             * for it. Fired back to back, the next acquire would queue behind that release and time it too;
             * on a real schedule a job's firings are a period apart (a second at least) and the release has
             * long been answered. One TIME on the same shared connection, answered after the release, waits
             * for it here, untimed (its Redis CPU is in this contender's column, not in the ratios).
             */
            @Override
            public void settle() {
                try (RedisConnection connection = factory.getConnection()) {
                    connection.serverCommands().time();
                }
            }
        });

        JobId storeJob = new JobId("default", "bench-store-job");
        long storeStart = start + 1_000_000_000L;
        contenders.put("jobguard-acquire-release", (i, part) -> {
            RunLeaseRequest r = new RunLeaseRequest(storeJob, Instant.ofEpochMilli(storeStart + i), UUID.randomUUID().toString(),
                    "bench", Duration.ofSeconds(30), Duration.ofMinutes(1), 20);
            store.acquireRun(r);
            store.releaseRun(r, Duration.ZERO);
        });

        String acquireSha = redis.scriptLoad(LuaScript.load("run-acquire").source());
        KeySchema keys = new KeySchema("benchraw");
        // 512 jobs in turn, each lease 1 ms: a job's lease has expired by its next turn (512 firings, many
        // milliseconds later), so no untimed DEL adds to the Redis CPU of this contender
        List<JobId> rawJobs = new ArrayList<>();
        for (int j = 0; j < 512; j++) {
            rawJobs.add(new JobId("default", "bench-raw-job-" + j));
        }
        long rawStart = start + 2_000_000_000L;
        contenders.put("acquire-script-evalsha", (i, part) -> {
            long t = rawStart + i;
            JobId rawJob = rawJobs.get(i % rawJobs.size());
            String[] k = keys.runAcquire(rawJob, Instant.ofEpochMilli(t)).toArray(String[]::new);
            List<Object> reply = redis.evalsha(acquireSha, ScriptOutputType.MULTI, k, "owner-" + i, "bench", Long.toString(t),
                    "1", "90000", "", "60000", "0", "", "", "", "", "", "", "");
            if (!"ACQUIRED".equals(reply.get(0))) {
                throw new IllegalStateException("acquire script answered " + reply);
            }
        });

        // What Redis spends on any one round trip (reading the request, writing the reply) and on any
        // one script call, whatever the script does: the bounds below which no design of the two calls goes
        contenders.put("one-command-set", (i, part) -> redis.set("bench-one-command", "v", SetArgs.Builder.px(30_000)));
        String emptySha = redis.scriptLoad("return 1");
        contenders.put("empty-script-evalsha", (i, part) -> redis.evalsha(emptySha, ScriptOutputType.INTEGER, new String[0]));

        String unlockSha = redis.scriptLoad(UNLOCK);
        contenders.put("floor-setnx-cad", (i, part) -> {
            String token = Long.toString(i);
            redis.set("bench-floor", token, SetArgs.Builder.nx().px(30_000));
            redis.evalsha(unlockSha, ScriptOutputType.INTEGER, new String[] {"bench-floor"}, token);
        });

        // The smallest fenced lock that scripts can make on Redis 7.0 (no compare-and-delete command): the lease
        // and a fencing token in one script, the owner-checked release in another. No record of fire times, no
        // history: what any design keeping job-guard's guarantees costs at least, with its two script calls.
        String fencedLockSha = redis.scriptLoad(FENCED_LOCK);
        String[] fencedKeys = {"bench-fenced-lease", "bench-fenced-counter"};
        contenders.put("floor-fenced-scripts", (i, part) -> {
            String token = Long.toString(i);
            Long fence = redis.evalsha(fencedLockSha, ScriptOutputType.INTEGER, fencedKeys, token);
            if (fence == null || fence == 0) {
                throw new IllegalStateException("the fenced-lock floor found its lease taken");
            }
            redis.evalsha(unlockSha, ScriptOutputType.INTEGER, new String[] {fencedKeys[0]}, token);
        });

        RedisLockProvider shedLock = new RedisLockProvider.Builder(factory).environment("bench").build();
        contenders.put("shedlock-default", (i, part) -> shedLockFiring(shedLock, "bench-shedlock"));
        RedisLockProvider shedLockSafe = new RedisLockProvider.Builder(factory).environment("bench").safeUpdate(true).build();
        contenders.put("shedlock-safeupdate", (i, part) -> shedLockFiring(shedLockSafe, "bench-shedlock-safe"));

        RLock rLock = redisson.getLock("bench-rlock");
        contenders.put("redisson-rlock", (i, part) -> {
            rLock.lock(30, TimeUnit.SECONDS);
            rLock.unlock();
        });
    }

    private static void shedLockFiring(RedisLockProvider provider, String name) {
        SimpleLock lock = provider.lock(new LockConfiguration(Instant.now(), name, Duration.ofSeconds(30), Duration.ZERO))
                .orElseThrow(() -> new IllegalStateException("ShedLock refused an uncontended lock " + name));
        lock.unlock();
    }

    private void measure(RedisCommands<String, String> info, int rounds, int firings, Path out) throws Exception {
        List<String> order = new ArrayList<>(contenders.keySet());
        int[] offsets = new int[contenders.size()];
        // warm-up: JIT, connections, script caches; not recorded
        for (Map.Entry<String, Contender> c : contenders.entrySet()) {
            long[][] part = {new long[firings]};
            for (int i = 0; i < Math.min(firings, 500); i++) {
                c.getValue().fire(i, part);
            }
            offsets[order.indexOf(c.getKey())] = Math.min(firings, 500);
        }
        List<String> csv = new ArrayList<>(List.of("contender,round,firings,median_us,p99_us,redis_usec_per_firing"));
        Map<String, List<double[]>> byContender = new LinkedHashMap<>();
        Map<String, long[]> lastRound = new LinkedHashMap<>();
        Map<String, String> commands = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (String name : roundOrder(order, round)) {
                Contender c = contenders.get(name);
                int offset = offsets[order.indexOf(name)];
                long[] whole = new long[firings];
                long[][] part = {new long[firings + offset]};
                if (round == rounds) {
                    info.configResetstat();
                }
                double cpuBefore = RedisInfo.cpuMicros(info.info("cpu"));
                for (int i = 0; i < firings; i++) {
                    long t0 = System.nanoTime();
                    c.fire(offset + i, part);
                    whole[i] = System.nanoTime() - t0;
                    c.settle();
                }
                double cpu = (RedisInfo.cpuMicros(info.info("cpu")) - cpuBefore) / firings;
                if (round == rounds) {
                    commands.put(name, commandsPerFiring(info.info("commandstats"), firings));
                }
                offsets[order.indexOf(name)] = offset + firings;
                String partName = partName(name);
                row(csv, byContender, lastRound, name, round, whole, String.format("%.2f", cpu));
                if (partName != null) {
                    row(csv, byContender, lastRound, partName, round, Arrays.copyOfRange(part[0], offset, offset + firings), "");
                }
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
     * Link mode: every round runs both pacings (their order alternating between rounds), and within each
     * pacing every contender, in the rotating order of {@link #measure}. Back to back, nothing is settled
     * between firings: job-guard's release of one firing is in flight when the next acquire is sent.
     */
    private void measureLink(RedisCommands<String, String> info, Link link, int rounds, int firings, Path out)
            throws Exception {
        List<String> order = new ArrayList<>(contenders.keySet());
        Map<String, Integer> offsets = new HashMap<>();
        // warm-up: JIT, connections, script caches; not recorded
        for (Map.Entry<String, Contender> c : contenders.entrySet()) {
            int warm = Math.min(firings, 500);
            long[][] part = {new long[warm]};
            for (int i = 0; i < warm; i++) {
                c.getValue().fire(i, part);
            }
            offsets.put(c.getKey(), warm);
        }
        long perDirectionUs = link.perDirection().toNanos() / 1_000;
        List<String> rtt = new ArrayList<>(List.of("path,delay_to_redis_us,delay_to_client_us,pings,median_us,min_us"));
        rtt.add(pings("direct", info, 0));
        rtt.add(pings("link", redis, perDirectionUs));
        System.out.printf("PING round trip, median over %,d (direct, then through the link): %s | %s%n", RTT_PINGS,
                rtt.get(1), rtt.get(2));

        List<String> csv = new ArrayList<>(List.of("pacing,contender,round,firings,median_us,p99_us,redis_usec_per_firing"));
        Map<String, Map<String, List<double[]>>> byPacing = new LinkedHashMap<>();
        byPacing.put(BACK_TO_BACK, new LinkedHashMap<>());
        byPacing.put(PERIOD_APART, new LinkedHashMap<>());
        Map<String, long[]> unused = new HashMap<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> pacings = round % 2 == 1 ? List.of(BACK_TO_BACK, PERIOD_APART) : List.of(PERIOD_APART, BACK_TO_BACK);
            for (String pacing : pacings) {
                boolean apart = pacing.equals(PERIOD_APART);
                for (String name : roundOrder(order, round)) {
                    Contender c = contenders.get(name);
                    int offset = offsets.get(name);
                    int n = apart ? link.apartFirings() : firings;
                    long[] whole = new long[n];
                    long[][] part = {new long[offset + n]};
                    double cpuBefore = RedisInfo.cpuMicros(info.info("cpu"));
                    for (int i = 0; i < n; i++) {
                        if (apart) {
                            Thread.sleep(link.gapMs());
                        }
                        long t0 = System.nanoTime();
                        c.fire(offset + i, part);
                        whole[i] = System.nanoTime() - t0;
                    }
                    double cpu = (RedisInfo.cpuMicros(info.info("cpu")) - cpuBefore) / n;
                    offsets.put(name, offset + n);
                    Map<String, List<double[]>> byContender = byPacing.get(pacing);
                    List<String> lines = new ArrayList<>();
                    row(lines, byContender, unused, name, round, whole, apart ? "" : String.format("%.2f", cpu));
                    String partName = partName(name);
                    if (partName != null) {
                        row(lines, byContender, unused, partName, round, Arrays.copyOfRange(part[0], offset, offset + n), "");
                    }
                    lines.forEach(line -> csv.add(pacing + "," + line));
                }
            }
        }
        Files.createDirectories(out);
        Files.write(out.resolve("firing-link.csv"), csv);
        Files.write(out.resolve("firing-link-rtt.csv"), rtt);

        List<String> summary = new ArrayList<>(List.of("pacing,contender,rounds,median_us,p99_us,redis_usec_per_firing"));
        List<String> ratios = new ArrayList<>(List.of("pacing,ratio,target,measured"));
        byPacing.forEach((pacing, byContender) -> {
            System.out.printf("%s, link +%s ms per round trip:%n%-28s %10s %10s %12s%n", pacing, link.delayMs(),
                    "contender", "median_us", "p99_us", "redis_us/f");
            byContender.forEach((name, rows) -> {
                double cpu = median(rows, 2);
                System.out.printf("%-28s %10.1f %10.1f %12s%n", name, median(rows, 0), median(rows, 1),
                        Double.isNaN(cpu) ? "" : String.format("%.2f", cpu));
                summary.add(String.format("%s,%s,%d,%.1f,%.1f,%s", pacing, name, rows.size(), median(rows, 0),
                        median(rows, 1), Double.isNaN(cpu) ? "" : String.format("%.2f", cpu)));
            });
            System.out.println("ratios: the median over rounds of each round's ratio");
            List<String> lines = new ArrayList<>();
            ratio(lines, byContender, "scheduler-thread time / ShedLock lock + unlock", "jobguard-scheduler-thread", "shedlock-default", 0, "at most 0.6x");
            ratio(lines, byContender, "scheduler-thread time / the two-round-trip floor", "jobguard-scheduler-thread", "floor-setnx-cad", 0, "");
            ratio(lines, byContender, "scheduler-thread time / one round trip (one SET)", "jobguard-scheduler-thread", "one-command-set", 0, "");
            ratio(lines, byContender, "ShedLock lock + unlock / one round trip (one SET)", "shedlock-default", "one-command-set", 0, "");
            // Bounds: the acquire script alone (no release, no Java around it) and a bare plain command, against the target's reference
            ratio(lines, byContender, "bound: one EVALSHA of the acquire script alone / ShedLock lock + unlock", "acquire-script-evalsha", "shedlock-default", 0, "");
            ratio(lines, byContender, "bound: one round trip (one SET) / ShedLock lock + unlock", "one-command-set", "shedlock-default", 0, "");
            lines.forEach(line -> ratios.add(pacing + "," + line));
        });
        Files.write(out.resolve("firing-link-summary.csv"), summary);
        Files.write(out.resolve("firing-link-ratios.csv"), ratios);
    }

    /** One CSV row of {@code firing-link-rtt.csv}: {@value #RTT_PINGS} PINGs on one connection. */
    private static String pings(String path, RedisCommands<String, String> connection, long perDirectionUs) {
        long[] nanos = new long[RTT_PINGS];
        for (int i = 0; i < nanos.length; i++) {
            long t0 = System.nanoTime();
            connection.ping();
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        return String.format("%s,%d,%d,%d,%.1f,%.1f", path, perDirectionUs, perDirectionUs, RTT_PINGS,
                nanos[nanos.length / 2] / 1000.0, nanos[0] / 1000.0);
    }

    /** Calls per firing of each command in an {@code INFO commandstats} reply, except INFO and CONFIG. */
    private static String commandsPerFiring(String commandstats, int firings) {
        StringBuilder out = new StringBuilder();
        for (String line : commandstats.split("\r?\n")) {
            if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:") && !line.startsWith("cmdstat_config")) {
                String command = line.substring("cmdstat_".length(), line.indexOf(':'));
                long calls = Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*$", "$1"));
                out.append(String.format("%s %.2f  ", command, calls / (double) firings));
            }
        }
        return out.toString().trim();
    }

    /** The part row a contender reports besides its whole latency. */
    private static String partName(String contender) {
        return contender.equals("jobguard-scheduler-thread") ? "jobguard-acquire" : null;
    }

    private static void row(List<String> csv, Map<String, List<double[]>> byContender, Map<String, long[]> lastRound,
                            String name, int round, long[] nanos, String cpu) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2] / 1000.0;
        double p99 = sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] / 1000.0;
        csv.add(String.format("%s,%d,%d,%.1f,%.1f,%s", name, round, nanos.length, median, p99, cpu));
        byContender.computeIfAbsent(name, k -> new ArrayList<>())
                .add(new double[] {median, p99, cpu.isEmpty() ? Double.NaN : Double.parseDouble(cpu)});
        lastRound.put(name, nanos);
    }

    /**
     * Prints the medians over rounds and the ratios, and writes them as {@code firing-summary.csv} and
     * {@code firing-ratios.csv} (the tables of docs/benchmarks.md; {@code firing.csv} keeps every round).
     */
    private static void summarize(Map<String, List<double[]>> byContender, Path out) throws IOException {
        List<String> summary = new ArrayList<>(List.of("contender,rounds,median_us,p99_us,redis_usec_per_firing"));
        System.out.printf("%-28s %10s %10s %12s%n", "contender", "median_us", "p99_us", "redis_us/f");
        byContender.forEach((name, rows) -> {
            double cpu = median(rows, 2);
            System.out.printf("%-28s %10.1f %10.1f %12.2f%n", name, median(rows, 0), median(rows, 1), cpu);
            summary.add(String.format("%s,%d,%.1f,%.1f,%s", name, rows.size(), median(rows, 0), median(rows, 1),
                    Double.isNaN(cpu) ? "" : String.format("%.2f", cpu)));
        });
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
        Files.write(out.resolve("firing-summary.csv"), summary);
        Files.write(out.resolve("firing-ratios.csv"), ratios);
    }

    /** The median over rounds of {@code a / b} in one column: printed, and added as a CSV row. */
    private static void ratio(List<String> csv, Map<String, List<double[]>> byContender, String label, String a,
                              String b, int column, String target) {
        List<double[]> as = byContender.get(a);
        List<double[]> bs = byContender.get(b);
        double[] perRound = new double[as.size()];
        for (int round = 0; round < as.size(); round++) {
            perRound[round] = as.get(round)[column] / bs.get(round)[column];
        }
        Arrays.sort(perRound);
        double value = perRound[perRound.length / 2];
        System.out.printf("  %-72s %.2fx%s%n", label, value, target.isEmpty() ? "" : " (target " + target + ")");
        csv.add(String.format("%s,%s,%.2fx", label, target, value));
    }

    private static double median(List<double[]> rows, int column) {
        double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return values[values.length / 2];
    }

    /** The contenders' order in one round: rotated by the round, reversed every other round. */
    private static List<String> roundOrder(List<String> order, int round) {
        List<String> thisOrder = new ArrayList<>(order);
        java.util.Collections.rotate(thisOrder, round);
        if (round % 2 == 0) {
            java.util.Collections.reverse(thisOrder);
        }
        return thisOrder;
    }
}
