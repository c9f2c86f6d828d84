package io.jobguard.benchmarks;

import io.jobguard.JobGuard;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Fleet capacity: how many guarded firings per second one Redis core decides when every node of a
 * fleet contends for every fire time, for job-guard beside ShedLock's {@code RedisLockProvider} and
 * Redisson's {@code RLock}, on the same Redis in one run, and on a local Redis Cluster of M masters.
 *
 * <p>K simulated nodes (each its own client, so its own connections, as K JVMs have) x J jobs, walking
 * fire times in step as fast as Redis answers: in each step every node asks for the step's fire time
 * of every job, exactly one node wins each, and no node starts the next step before every node has
 * asked (real nodes fire together within their clock skew). A step's fire time is the wall clock's
 * current millisecond, so the fire times never run ahead of Redis's clock (at most 1,000 steps per
 * second; each step decides J fire times). Each node asks from T worker threads (a scheduler's pool;
 * the node's jobs split among them), so K x T asks are in flight at once: the offered load, raised
 * level by level (T = 1, 2, 4, ...) past the point where the granted firings per second stop growing,
 * because Redis's core or the clients' cores are saturated (both are measured). At every level the
 * three contenders take turns, in an order that rotates and reverses from level to level.
 *
 * <ul>
 *   <li>job-guard: {@link JobGuard#admit} for the job's fire time, the winner's permit finished at once
 *       (a firing with an empty body): the fire-time marker keeps the fire time taken after the release.</li>
 *   <li>ShedLock: {@code RedisLockProvider.lock} (one lock per job name; a node that loses gets an empty
 *       {@code Optional}), {@code unlock} by the winner once every node has asked for the step.</li>
 *   <li>Redisson: {@code RLock.tryLock(0, 30 s)} (no wait, no watchdog), {@code unlock} by the winner once
 *       every node has asked for the step.</li>
 * </ul>
 *
 * <p>ShedLock and Redisson lock a job name, not a fire time, so a winner that released before a slower
 * node asked would let that node run the fire time again; ShedLock's users set {@code lockAtLeastFor}
 * above their clock skew for that, which walked fire times cannot model, so their winners hold the
 * lock until every node has asked (the same Redis calls, one lock and one unlock per firing).
 *
 * <p>Per contender and level: granted firings per second, decisions (asks) per second, the Redis CPU
 * used (sum over the masters of {@code used_cpu_user + used_cpu_sys} deltas of {@code INFO cpu}, the
 * idle rate sampled before the run subtracted) as a share of one core and per granted firing, the
 * busiest master's share of it, the CPU this JVM (every node's client) used as a share of one core, and
 * how many fire times were granted to no node or to more than one. job-guard must grant every fire
 * time exactly once: the run fails otherwise. Where the clients saturate first, the firings per second
 * one Redis core decides are 1e6 / the Redis CPU per firing at the best level measured
 * ({@code capacity-summary.csv}); since Redis CPU per firing falls as Redis gets busier, that figure is
 * a lower bound.
 *
 * <p>Arguments: {@code KxJ} (default {@code 10x200}), seconds measured per contender and level (default
 * 4; a quarter of it more as warm-up), output directory (default {@code docs/benchmarks/data}); options
 * {@code --threads 1,2,4,8,16,32} (threads per node, one level each; the default), {@code --masters 1,3} (the
 * local Redis Clusters measured after the standalone Redis; {@code none} for none), {@code --nodes 2,10,30} (fleet
 * sizes, standalone only) and {@code --rate R} (each step lasts at least J / R seconds, so every contender and fleet
 * size is offered the same R granted firings per second and Redis is about as busy for each: the Redis CPU per
 * firing compares without the effect of a busier Redis; written to {@code capacity-rateR*.csv} instead). Writes
 * {@code capacity.csv} (every level), {@code capacity-summary.csv} (each contender at its highest
 * granted firings per second, per Redis) and {@code capacity-projection.csv} (firings per second for M
 * masters), and prints the summary and the ratios.
 */
public final class CapacityBenchmark {

    /** The capacity.csv header. */
    static final String HEADER = "redis,masters,contender,nodes,jobs,threads_per_node,seconds,fire_times,granted_per_s,"
            + "decisions_per_s,redis_cpu_pct,redis_usec_per_firing,redis_calls_per_firing,busiest_share,client_cpu_pct,missed,"
            + "duplicates";
    /** The capacity-summary.csv header; {@link BenchmarkReport} prints it as it is. */
    static final String SUMMARY_HEADER = "redis,contender,nodes_x_jobs,threads_per_node,granted_per_s,decisions_per_s,"
            + "redis_cpu_pct,client_cpu_pct,redis_usec_per_firing,redis_calls_per_firing,client_usec_per_firing,"
            + "firings_per_s_at_one_core,vs_jobguard_at_one_core";
    /** The capacity-projection.csv header. */
    static final String PROJECTION_HEADER = "contender,basis,redis_usec_per_firing,busiest_master_share,"
            + "m1_firings_per_s,m3_firings_per_s,m6_firings_per_s,m12_firings_per_s,basis_masters_at_measured_shares";

    /** job-guard with its defaults: the fleet spread on, so one assigned node asks for each fire time. */
    static final String JOB_GUARD = "job-guard";
    /** job-guard with the fleet spread off ({@code jobguard.spread.enabled=false}): every node asks. */
    static final String JOB_GUARD_ASK_ALL = "job-guard-ask-all";
    static final String SHEDLOCK = "shedlock";
    static final String REDISSON = "redisson";
    static final List<String> CONTENDERS = List.of(JOB_GUARD, JOB_GUARD_ASK_ALL, SHEDLOCK, REDISSON);
    private static final Duration IDLE_SAMPLE = Duration.ofSeconds(2);

    private CapacityBenchmark() {
    }

    /**
     * Where the nodes connect.
     *
     * @param name     {@code standalone} or {@code cluster}
     * @param masters  how many masters (1 for a standalone Redis)
     * @param spring   the Spring Data configuration (job-guard's and ShedLock's nodes)
     * @param redisson applies the servers to a Redisson configuration
     * @param admin    an admin connection to each master, for {@code INFO} and {@code TIME}
     */
    record Target(String name, int masters, RedisConfiguration spring, Consumer<Config> redisson,
                  List<RedisCommands<String, String>> admin) {

        String label() {
            return name.equals("standalone") ? name : name + "-" + masters;
        }
    }

    /**
     * What one run measures.
     *
     * @param nodes    K
     * @param jobs     J
     * @param threads  threads per node, one level each
     * @param warmUp   per contender and level, before measuring
     * @param measured per contender and level
     * @param rate     granted firings per second each level is paced to ({@code --rate}), 0 for as fast as Redis answers
     */
    record Settings(int nodes, int jobs, int[] threads, Duration warmUp, Duration measured, int rate) {

        /** How long a step lasts at least: J fire times at the paced rate; 0 unpaced. */
        long stepNanos() {
            return rate == 0 ? 0 : jobs * 1_000_000_000L / rate;
        }
    }

    /**
     * One contender at one level: a row of capacity.csv.
     *
     * @param redis              the target's label
     * @param masters            M
     * @param contender          the contender's name
     * @param nodes              K
     * @param jobs               J
     * @param threadsPerNode     T
     * @param seconds            the measured wall time
     * @param fireTimes          fire times decided while measuring (steps x J)
     * @param grantedPerSecond   grants per second while measuring
     * @param decisionsPerSecond asks per second (K per fire time)
     * @param redisCpuPct        Redis CPU over the masters, percent of one core
     * @param redisUsecPerFiring Redis CPU over the masters per granted firing, µs
     * @param redisCallsPerFiring commands Redis ran per granted firing (script calls and the commands they called)
     * @param busiestShare       the busiest master's share of that CPU
     * @param clientCpuPct       the CPU this JVM (every node's client) used, percent of one core
     * @param missed             fire times granted to no node (warm-up included)
     * @param duplicates         grants beyond the first of a fire time (warm-up included)
     */
    record Level(String redis, int masters, String contender, int nodes, int jobs, int threadsPerNode, double seconds,
                 long fireTimes, double grantedPerSecond, double decisionsPerSecond, double redisCpuPct,
                 double redisUsecPerFiring, double redisCallsPerFiring, double busiestShare, double clientCpuPct, long missed,
                 long duplicates) {

        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%.2f,%d,%.0f,%.0f,%.1f,%.2f,%.2f,%.3f,%.1f,%d,%d", redis,
                    masters, contender, nodes, jobs, threadsPerNode, seconds, fireTimes, grantedPerSecond, decisionsPerSecond,
                    redisCpuPct, redisUsecPerFiring, redisCallsPerFiring, busiestShare, clientCpuPct, missed, duplicates);
        }

        /** The CPU every node's client used per granted firing, µs (the benchmark JVM's process CPU). */
        double clientUsecPerFiring() {
            return clientCpuPct / 100 * 1e6 / grantedPerSecond;
        }

        /** Firings per second one Redis core decides at 100 %, at this level's Redis CPU per firing. */
        double firingsPerSecondAtOneCore() {
            return 1e6 / redisUsecPerFiring;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-10s %-17s K=%-3d T=%-3d %,9.0f granted/s %,10.0f decisions/s  Redis %5.1f%% "
                            + "of a core, %6.2f µs and %5.1f commands per firing (busiest master %.0f%%), clients %5.1f%% of a "
                            + "core  missed %d, duplicates %d", redis, contender, nodes, threadsPerNode, grantedPerSecond,
                    decisionsPerSecond, redisCpuPct, redisUsecPerFiring, redisCallsPerFiring, busiestShare * 100,
                    clientCpuPct, missed, duplicates);
        }
    }

    /**
     * Runs the benchmark on a private standalone {@code redis-server}, then on each local Redis Cluster.
     *
     * @param args {@code KxJ}, seconds per level, output directory; {@code --threads}, {@code --masters}
     * @throws Exception if Redis cannot be started or a node fails
     */
    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        int[] threads = {1, 2, 4, 8, 16, 32};
        int[] masters = {1, 3};
        int[] fleetSizes = null;
        int rate = 0;
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--rate" -> rate = Integer.parseInt(args[++a]);
                case "--threads" -> threads = ints(args[++a]);
                case "--masters" -> masters = args[++a].equals("none") ? new int[0] : ints(args[a]);
                case "--nodes" -> fleetSizes = ints(args[++a]);
                default -> positional.add(args[a]);
            }
        }
        int[] size = FleetBenchmark.parseSizes(positional.isEmpty() ? "10x200" : positional.get(0)).get(0);
        double seconds = positional.size() > 1 ? Double.parseDouble(positional.get(1)) : 4;
        Path out = Path.of(positional.size() > 2 ? positional.get(2) : "docs/benchmarks/data");
        Settings settings = new Settings(size[0], size[1], threads, Duration.ofMillis((long) (seconds * 250)),
                Duration.ofMillis((long) (seconds * 1000)), rate);

        List<Level> levels = new ArrayList<>();
        for (int nodes : fleetSizes == null ? new int[] {settings.nodes()} : fleetSizes) {
            Settings fleet = new Settings(nodes, settings.jobs(), settings.threads(), settings.warmUp(), settings.measured(),
                    settings.rate());
            try (PrivateRedis redis = PrivateRedis.start()) {
                RedisClient client = RedisClient.create(RedisURI.create(BenchRedis.HOST, redis.port()));
                try (StatefulRedisConnection<String, String> admin = client.connect()) {
                    levels.addAll(measure(new Target("standalone", 1, new RedisStandaloneConfiguration(BenchRedis.HOST,
                            redis.port()), c -> c.useSingleServer().setAddress("redis://" + BenchRedis.HOST + ":"
                            + redis.port()).setConnectionMinimumIdleSize(2), List.of(admin.sync())), fleet));
                } finally {
                    client.shutdown();
                }
            }
        }
        for (int m : masters) {
            try (LocalRedisCluster cluster = LocalRedisCluster.start(m)) {
                levels.addAll(measure(new Target("cluster", m, new RedisClusterConfiguration(cluster.nodes()),
                        c -> c.useClusterServers().addNodeAddress(cluster.nodes().stream().map(n -> "redis://" + n)
                                .toArray(String[]::new)).setReadMode(ReadMode.MASTER).setMasterConnectionMinimumIdleSize(2),
                        cluster.masters()), settings));
            }
        }
        CapacityReport.write(out, rate == 0 ? "capacity" : "capacity-rate" + rate, levels);
    }

    private static int[] ints(String list) {
        return Arrays.stream(list.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    }

    /**
     * Every level of every contender on one target (an empty Redis or cluster of the run's own).
     *
     * @param target   where the nodes connect
     * @param settings K, J, the levels and their durations
     * @return one row per contender and level, in the order measured
     * @throws Exception if a node fails, or job-guard granted a fire time to no node or to two
     */
    static List<Level> measure(Target target, Settings settings) throws Exception {
        double[] idleRate = RedisInfo.idleCpuRate(target.admin(), IDLE_SAMPLE);
        Map<String, List<CapacityNodes.Node>> fleets = new LinkedHashMap<>();
        List<Level> levels = new ArrayList<>();
        // each contender's own grid: its jobs' fire times are the steps of its own levels only, as a real schedule's
        Map<String, StepSchedule> schedules = new LinkedHashMap<>();
        try {
            for (String contender : CONTENDERS) {
                List<CapacityNodes.Node> fleet = new ArrayList<>();
                fleets.put(contender, fleet);
                for (int k = 0; k < settings.nodes(); k++) {
                    fleet.add(CapacityNodes.node(contender, target, "node-" + k, settings.jobs(),
                            schedules.computeIfAbsent(contender, c -> new StepSchedule())));
                }
            }
            AtomicLong lastNominalFireTimeMillis = new AtomicLong();
            for (int l = 0; l < settings.threads().length; l++) {
                for (String contender : order(l)) {
                    Level level = level(target, contender, fleets.get(contender), settings, settings.threads()[l],
                            lastNominalFireTimeMillis, idleRate, schedules.get(contender));
                    System.out.println(level);
                    levels.add(level);
                    if (contender.startsWith(JOB_GUARD) && (level.missed() > 0 || level.duplicates() > 0)) {
                        Map<String, Long> others = new java.util.TreeMap<>();
                        fleets.get(contender).forEach(n -> n.otherOutcomes().forEach((o, c) -> others.merge(o, c, Long::sum)));
                        throw new IllegalStateException("job-guard granted " + level.missed() + " fire times to no node and "
                                + level.duplicates() + " more than once: each fire time must run exactly once (" + level
                                + "; the fleet's other outcomes so far: " + others + ")");
                    }
                }
            }
        } finally {
            fleets.values().forEach(fleet -> fleet.forEach(CapacityNodes.Node::close));
        }
        return levels;
    }

    /** The contenders' order at level {@code l}: rotated by the level, reversed every other level. */
    private static List<String> order(int l) {
        List<String> order = new ArrayList<>(CONTENDERS);
        Collections.rotate(order, l);
        if (l % 2 == 1) {
            Collections.reverse(order);
        }
        return order;
    }

    /** One contender at one level: K x T worker threads walk the fire times in step until the measured time is up. */
    private static Level level(Target target, String contender, List<CapacityNodes.Node> fleet, Settings settings, int threads,
                               AtomicLong lastNominalFireTimeMillis, double[] idleRate, StepSchedule schedule)
            throws Exception {
        int parties = fleet.size() * threads;
        CapacityWalk walk = new CapacityWalk(target, settings, lastNominalFireTimeMillis, schedule);
        CyclicBarrier ask = new CyclicBarrier(parties, walk);
        CyclicBarrier release = new CyclicBarrier(parties);
        ExecutorService pool = Executors.newFixedThreadPool(parties);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (CapacityNodes.Node node : fleet) {
                for (int t = 0; t < threads; t++) {
                    int firstJob = t;
                    workers.add(pool.submit(() -> {
                        walk.work(node, firstJob, threads, ask, release);
                        return null;
                    }));
                }
            }
            for (Future<?> worker : workers) {
                try {
                    worker.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (walk.failure.get() != null) {
                        throw new IllegalStateException(contender + " failed on " + target.label(), walk.failure.get());
                    }
                    throw e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (walk.endNanos - walk.startNanos) / 1e9;
        double total = 0;
        double busiest = 0;
        for (int i = 0; i < idleRate.length; i++) {
            double used = Math.max(0, walk.cpuAfter[i] - walk.cpuBefore[i] - idleRate[i] * seconds);
            total += used;
            busiest = Math.max(busiest, used);
        }
        long granted = walk.measuredGrants;
        return new Level(target.label(), target.masters(), contender, fleet.size(), settings.jobs(), threads, seconds,
                walk.measuredFireTimes, granted / seconds, (double) walk.measuredFireTimes * fleet.size() / seconds,
                total / seconds * 100, total * 1e6 / granted, (double) (walk.callsAfter - walk.callsBefore) / granted,
                total == 0 ? 0 : busiest / total,
                (walk.clientCpuAfter - walk.clientCpuBefore) / 1e9 / seconds * 100, walk.missed, walk.duplicates);
    }
}
