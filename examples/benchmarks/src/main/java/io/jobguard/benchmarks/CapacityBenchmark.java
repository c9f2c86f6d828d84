package io.jobguard.benchmarks;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
 * {@code --threads 1,2,4,8,16,32} (threads per node, one level each; the default) and {@code --masters 1,3} (the
 * local Redis Clusters measured after the standalone Redis; {@code none} for none). Writes
 * {@code capacity.csv} (every level), {@code capacity-summary.csv} (each contender at its highest
 * granted firings per second, per Redis) and {@code capacity-projection.csv} (firings per second for M
 * masters), and prints the summary and the ratios.
 */
public final class CapacityBenchmark {

    /** The capacity.csv header. */
    static final String HEADER = "redis,masters,contender,nodes,jobs,threads_per_node,seconds,fire_times,granted_per_s,"
            + "decisions_per_s,redis_cpu_pct,redis_usec_per_firing,busiest_share,client_cpu_pct,missed,duplicates";
    /** The capacity-summary.csv header; {@link BenchmarkReport} prints it as it is. */
    static final String SUMMARY_HEADER = "redis,contender,nodes_x_jobs,threads_per_node,granted_per_s,decisions_per_s,"
            + "redis_cpu_pct,client_cpu_pct,redis_usec_per_firing,firings_per_s_at_one_core,vs_jobguard_at_one_core";
    /** The capacity-projection.csv header. */
    static final String PROJECTION_HEADER = "contender,basis,redis_usec_per_firing,busiest_master_share,"
            + "m1_firings_per_s,m3_firings_per_s,m6_firings_per_s,m12_firings_per_s,basis_masters_at_measured_shares";

    static final String JOB_GUARD = "job-guard";
    static final String SHEDLOCK = "shedlock";
    static final String REDISSON = "redisson";
    private static final List<String> CONTENDERS = List.of(JOB_GUARD, SHEDLOCK, REDISSON);
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(30);
    private static final Duration IDLE_SAMPLE = Duration.ofSeconds(2);
    private static final int[] PROJECTED_MASTERS = {1, 3, 6, 12};
    /** A winner that released at once (job-guard's permit is finished when it is granted). */
    private static final Runnable RELEASED = () -> { };

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
     */
    record Settings(int nodes, int jobs, int[] threads, Duration warmUp, Duration measured) {
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
     * @param busiestShare       the busiest master's share of that CPU
     * @param clientCpuPct       the CPU this JVM (every node's client) used, percent of one core
     * @param missed             fire times granted to no node (warm-up included)
     * @param duplicates         grants beyond the first of a fire time (warm-up included)
     */
    record Level(String redis, int masters, String contender, int nodes, int jobs, int threadsPerNode, double seconds,
                 long fireTimes, double grantedPerSecond, double decisionsPerSecond, double redisCpuPct,
                 double redisUsecPerFiring, double busiestShare, double clientCpuPct, long missed, long duplicates) {

        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%.2f,%d,%.0f,%.0f,%.1f,%.2f,%.3f,%.1f,%d,%d", redis, masters,
                    contender, nodes, jobs, threadsPerNode, seconds, fireTimes, grantedPerSecond, decisionsPerSecond,
                    redisCpuPct, redisUsecPerFiring, busiestShare, clientCpuPct, missed, duplicates);
        }

        /** Firings per second one Redis core decides at 100 %, at this level's Redis CPU per firing. */
        double firingsPerSecondAtOneCore() {
            return 1e6 / redisUsecPerFiring;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-10s %-9s T=%-3d %,9.0f granted/s %,10.0f decisions/s  Redis %5.1f%% of a core, "
                            + "%6.2f µs per firing (busiest master %.0f%%), clients %5.1f%% of a core  missed %d, duplicates %d", redis,
                    contender, threadsPerNode, grantedPerSecond, decisionsPerSecond, redisCpuPct, redisUsecPerFiring,
                    busiestShare * 100, clientCpuPct, missed, duplicates);
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
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--threads" -> threads = ints(args[++a]);
                case "--masters" -> masters = args[++a].equals("none") ? new int[0] : ints(args[a]);
                default -> positional.add(args[a]);
            }
        }
        int[] size = FleetBenchmark.parseSizes(positional.isEmpty() ? "10x200" : positional.get(0)).get(0);
        double seconds = positional.size() > 1 ? Double.parseDouble(positional.get(1)) : 4;
        Path out = Path.of(positional.size() > 2 ? positional.get(2) : "docs/benchmarks/data");
        Settings settings = new Settings(size[0], size[1], threads, Duration.ofMillis((long) (seconds * 250)),
                Duration.ofMillis((long) (seconds * 1000)));

        List<Level> levels = new ArrayList<>();
        try (PrivateRedis redis = PrivateRedis.start()) {
            RedisClient client = RedisClient.create(RedisURI.create(BenchRedis.HOST, redis.port()));
            try (StatefulRedisConnection<String, String> admin = client.connect()) {
                levels.addAll(measure(new Target("standalone", 1, new RedisStandaloneConfiguration(BenchRedis.HOST, redis.port()),
                        c -> c.useSingleServer().setAddress("redis://" + BenchRedis.HOST + ":" + redis.port())
                                .setConnectionMinimumIdleSize(2), List.of(admin.sync())), settings));
            } finally {
                client.shutdown();
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
        write(out, levels);
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
        Map<String, List<Node>> fleets = new LinkedHashMap<>();
        List<Level> levels = new ArrayList<>();
        try {
            for (String contender : CONTENDERS) {
                List<Node> fleet = new ArrayList<>();
                fleets.put(contender, fleet);
                for (int k = 0; k < settings.nodes(); k++) {
                    fleet.add(node(contender, target, "node-" + k, settings.jobs()));
                }
            }
            AtomicLong lastFireTime = new AtomicLong();
            for (int l = 0; l < settings.threads().length; l++) {
                for (String contender : order(l)) {
                    Level level = level(target, contender, fleets.get(contender), settings, settings.threads()[l],
                            lastFireTime, idleRate);
                    System.out.println(level);
                    levels.add(level);
                    if (contender.equals(JOB_GUARD) && (level.missed() > 0 || level.duplicates() > 0)) {
                        throw new IllegalStateException("job-guard granted " + level.missed() + " fire times to no node and "
                                + level.duplicates() + " more than once: each fire time must run exactly once (" + level + ")");
                    }
                }
            }
        } finally {
            fleets.values().forEach(fleet -> fleet.forEach(Node::close));
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

    /** One simulated node of one contender: its own client and connections, as one JVM has. */
    private interface Node {
        /**
         * Asks for job {@code job}'s fire time {@code fireMillis} (epoch millis, this step's).
         *
         * @return null if another node has it; else what the winner runs once every node has asked
         */
        Runnable fire(int job, long fireMillis) throws Exception;

        void close();
    }

    private static Node node(String contender, Target target, String nodeId, int jobs) {
        return switch (contender) {
            case JOB_GUARD -> jobGuardNode(target, nodeId, jobs);
            case SHEDLOCK -> shedLockNode(target, jobs);
            case REDISSON -> redissonNode(target, jobs);
            default -> throw new IllegalArgumentException(contender);
        };
    }

    private static Node jobGuardNode(Target target, String nodeId, int jobs) {
        GuardNode node = new GuardNode(target.spring(), "capacity", nodeId, FleetBenchmark.SKEW_TOLERANCE);
        List<JobOptions> options = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            options.add(JobOptions.builder("job-" + j, LEASE).keepAlive(false).build());
        }
        return new Node() {
            @Override
            public Runnable fire(int job, long fireMillis) {
                Admission admission = node.guard().admit(options.get(job), Instant.ofEpochMilli(fireMillis));
                if (!admission.granted()) {
                    return null;
                }
                admission.permit().finish(null);
                return RELEASED;
            }

            @Override
            public void close() {
                node.close();
            }
        };
    }

    private static Node shedLockNode(Target target, int jobs) {
        LettuceConnectionFactory factory = BenchRedis.springFactory(target.spring());
        RedisLockProvider provider = new RedisLockProvider.Builder(factory).environment("capacity").build();
        return new Node() {
            @Override
            public Runnable fire(int job, long fireMillis) {
                Optional<SimpleLock> lock = provider.lock(new LockConfiguration(Instant.now(), "job-" + job, LOCK_AT_MOST_FOR,
                        Duration.ZERO));
                return lock.<Runnable>map(l -> l::unlock).orElse(null);
            }

            @Override
            public void close() {
                factory.destroy();
            }
        };
    }

    private static Node redissonNode(Target target, int jobs) {
        Config config = new Config();
        // Two Netty threads, as Lettuce runs two I/O threads per client here: the client core is shared by every node
        config.setNettyThreads(2);
        config.setThreads(2);
        target.redisson().accept(config);
        RedissonClient redisson = Redisson.create(config);
        RLock[] locks = new RLock[jobs];
        for (int j = 0; j < jobs; j++) {
            locks[j] = redisson.getLock("capacity-job-" + j);
        }
        return new Node() {
            @Override
            public Runnable fire(int job, long fireMillis) throws InterruptedException {
                RLock lock = locks[job];
                return lock.tryLock(0, LOCK_AT_MOST_FOR.toSeconds(), TimeUnit.SECONDS) ? lock::unlock : null;
            }

            @Override
            public void close() {
                redisson.shutdown();
            }
        };
    }

    /** One contender at one level: K x T worker threads walk the fire times in step until the measured time is up. */
    private static Level level(Target target, String contender, List<Node> fleet, Settings settings, int threads,
                               AtomicLong lastFireTime, double[] idleRate) throws Exception {
        int parties = fleet.size() * threads;
        Walk walk = new Walk(target, settings, lastFireTime);
        CyclicBarrier ask = new CyclicBarrier(parties, walk);
        CyclicBarrier release = new CyclicBarrier(parties);
        ExecutorService pool = Executors.newFixedThreadPool(parties);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (Node node : fleet) {
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
                total / seconds * 100, total * 1e6 / granted, total == 0 ? 0 : busiest / total,
                (walk.clientCpuAfter - walk.clientCpuBefore) / 1e9 / seconds * 100, walk.missed, walk.duplicates);
    }

    /**
     * The step every worker of one level is at; {@link #run()} is the barrier action between two steps
     * (it runs in one thread while every other worker waits): it tallies the step that ended, starts and
     * ends the measured window, and hands out the next step.
     */
    private static final class Walk implements Runnable {
        private final Target target;
        private final int jobs;
        private final AtomicLong lastFireTime;
        private final long warmUpEnd;
        private final long measured;
        final AtomicReference<Exception> failure = new AtomicReference<>();
        private volatile boolean stop;
        private volatile long fireTime;
        private volatile AtomicIntegerArray grants;
        private boolean measuring;
        private boolean countStep;
        long startNanos;
        long endNanos;
        double[] cpuBefore;
        double[] cpuAfter;
        long clientCpuBefore;
        long clientCpuAfter;
        long measuredFireTimes;
        long measuredGrants;
        long missed;
        long duplicates;

        Walk(Target target, Settings settings, AtomicLong lastFireTime) {
            this.target = target;
            this.jobs = settings.jobs();
            this.lastFireTime = lastFireTime;
            this.warmUpEnd = System.nanoTime() + settings.warmUp().toNanos();
            this.measured = settings.measured().toNanos();
        }

        @Override
        public void run() {
            if (grants != null) {
                for (int j = 0; j < jobs; j++) {
                    int g = grants.get(j);
                    if (g == 0) {
                        missed++;
                    } else if (g > 1) {
                        duplicates += g - 1;
                    }
                    if (countStep) {
                        measuredGrants += g;
                    }
                }
                if (countStep) {
                    measuredFireTimes += jobs;
                }
            }
            long now = System.nanoTime();
            if (measuring && now - startNanos >= measured) {
                endNanos = System.nanoTime();
                cpuAfter = RedisInfo.cpuSeconds(target.admin());
                clientCpuAfter = processCpuNanos();
                stop = true;
                return;
            }
            if (!measuring && now - warmUpEnd >= 0) {
                measuring = true;
                cpuBefore = RedisInfo.cpuSeconds(target.admin());
                clientCpuBefore = processCpuNanos();
                startNanos = System.nanoTime();
            }
            countStep = measuring;
            fireTime = nextFireTime();
            grants = new AtomicIntegerArray(jobs);
        }

        /**
         * The next step's fire time: this millisecond of the wall clock (Redis's too, on this machine), later than
         * the previous step's. A fire time ahead of Redis's clock is a clock lead, which job-guard's nodes publish
         * to the fleet and wait for (one fleet-leads interval) when it grows: a walk ahead of the clock would
         * measure those waits, never a real fleet's firing.
         */
        private long nextFireTime() {
            long previous = lastFireTime.get();
            long now = System.currentTimeMillis();
            while (now <= previous) {
                Thread.onSpinWait();
                now = System.currentTimeMillis();
            }
            lastFireTime.set(now);
            return now;
        }

        /** One worker: jobs {@code firstJob}, {@code firstJob + stride}, ... of one node, step after step. */
        void work(Node node, int firstJob, int stride, CyclicBarrier ask, CyclicBarrier release) throws Exception {
            List<Runnable> held = new ArrayList<>();
            try {
                while (true) {
                    ask.await();
                    if (stop) {
                        return;
                    }
                    long s = fireTime;
                    AtomicIntegerArray granted = grants;
                    for (int j = firstJob; j < jobs; j += stride) {
                        Runnable won = node.fire(j, s);
                        if (won != null) {
                            granted.incrementAndGet(j);
                            held.add(won);
                        }
                    }
                    // The winners of ShedLock and Redisson hold their lock until every node has asked
                    release.await();
                    held.forEach(Runnable::run);
                    held.clear();
                }
            } catch (Exception e) {
                if (!(e instanceof BrokenBarrierException)) {
                    failure.compareAndSet(null, e);
                }
                ask.reset();
                release.reset();
                throw e;
            }
        }
    }

    /** The CPU time this JVM used so far (every thread: the nodes' workers, their clients' I/O threads, the JIT, GC). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The summary rows: each contender at its highest granted firings per second, per target. */
    static List<Level> saturation(List<Level> levels) {
        Map<String, Level> best = new LinkedHashMap<>();
        for (Level l : levels) {
            best.merge(l.redis() + "/" + l.contender(), l, (a, b) -> b.grantedPerSecond() > a.grantedPerSecond() ? b : a);
        }
        return new ArrayList<>(best.values());
    }

    private static Level find(List<Level> rows, String redis, String contender) {
        return rows.stream().filter(r -> r.redis().equals(redis) && r.contender().equals(contender)).findFirst().orElse(null);
    }

    /**
     * Writes the three CSV files and prints the summary, the ratios and the projection.
     *
     * @param out    the output directory
     * @param levels every row measured
     * @throws java.io.IOException if a file cannot be written
     */
    static void write(Path out, List<Level> levels) throws java.io.IOException {
        List<Level> summary = saturation(levels);
        List<String> csv = new ArrayList<>(List.of(HEADER));
        levels.forEach(l -> csv.add(l.csv()));
        List<String> summaryCsv = new ArrayList<>(List.of(SUMMARY_HEADER));
        System.out.println();
        System.out.println("at saturation (each contender's level with the most granted firings per second):");
        for (Level l : summary) {
            Level jobGuard = find(summary, l.redis(), JOB_GUARD);
            summaryCsv.add(String.format(Locale.ROOT, "%s,%s,%dx%d,%d,%.0f,%.0f,%.1f,%.1f,%.2f,%.0f,%.2fx", l.redis(),
                    l.contender(), l.nodes(), l.jobs(), l.threadsPerNode(), l.grantedPerSecond(), l.decisionsPerSecond(),
                    l.redisCpuPct(), l.clientCpuPct(), l.redisUsecPerFiring(), l.firingsPerSecondAtOneCore(),
                    l.firingsPerSecondAtOneCore() / jobGuard.firingsPerSecondAtOneCore()));
            System.out.println("  " + l + String.format(Locale.ROOT, "  -> %,.0f firings/s at one Redis core",
                    l.firingsPerSecondAtOneCore()));
        }
        System.out.println("ratios, job-guard / peer (granted firings per second measured; at one Redis core):");
        for (Level l : summary) {
            if (!l.contender().equals(JOB_GUARD)) {
                Level jobGuard = find(summary, l.redis(), JOB_GUARD);
                System.out.printf(Locale.ROOT, "  %-10s job-guard / %-9s %.2fx measured, %.2fx at one Redis core%n", l.redis(),
                        l.contender(), jobGuard.grantedPerSecond() / l.grantedPerSecond(),
                        jobGuard.firingsPerSecondAtOneCore() / l.firingsPerSecondAtOneCore());
            }
        }
        List<String> projection = new ArrayList<>(List.of(PROJECTION_HEADER));
        System.out.println("projection for M masters, each master one core at 100 % (" + PROJECTION_HEADER + "):");
        for (String contender : CONTENDERS) {
            for (Level l : summary) {
                if (l.contender().equals(contender) && l.redis().startsWith("cluster")) {
                    // M x one master core at the basis's Redis CPU per firing, the jobs spread evenly; and the basis's
                    // own M with its measured shares, where the busiest master saturates first
                    StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%s,%s,%.2f,%.3f", contender, l.redis(),
                            l.redisUsecPerFiring(), l.busiestShare()));
                    for (int m : PROJECTED_MASTERS) {
                        row.append(String.format(Locale.ROOT, ",%.0f", m * l.firingsPerSecondAtOneCore()));
                    }
                    row.append(String.format(Locale.ROOT, ",%.0f", 1e6 / (l.redisUsecPerFiring() * l.busiestShare())));
                    projection.add(row.toString());
                }
            }
        }
        projection.subList(1, projection.size()).forEach(p -> System.out.println("  " + p));
        Files.createDirectories(out);
        Files.write(out.resolve("capacity.csv"), csv);
        Files.write(out.resolve("capacity-summary.csv"), summaryCsv);
        Files.write(out.resolve("capacity-projection.csv"), projection);
        System.out.println("wrote " + out.resolve("capacity.csv") + ", capacity-summary.csv and capacity-projection.csv");
    }
}
