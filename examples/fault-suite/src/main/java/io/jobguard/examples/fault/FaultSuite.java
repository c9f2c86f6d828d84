package io.jobguard.examples.fault;

import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunRecord;
import io.jobguard.testing.TcpProxy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The fault suite's runner: per scenario and library, a fresh Redis, three node JVMs of
 * {@link FaultNodeApplication} with scheduler clocks at −2 s, 0 and +3 s, the fault injected about a
 * third into the window, the nodes stopped, the {@link LedgerChecker}'s verdict, and one markdown
 * table of every run, whose path it prints.
 *
 * <p>Usage: {@code FaultSuite [--scenario NAME ...] [--library job-guard|shedlock|both] [--seconds N]
 * [--node-arg ARG ...] [--out DIR]}; defaults: every scenario, both libraries, 30 s, no extra node
 * arguments, {@code target/fault-suite}. {@code --recheck RUN_DIR} only runs the checker again over
 * the ledgers of an earlier run and writes {@code results-rechecked.md} there. {@code --node-arg} passes a Spring Boot argument to every node
 * (e.g. a job-guard property to compare a setting); the table's library column names it.
 */
public final class FaultSuite {

    /** The nodes: name and scheduler clock skew. */
    static final String[][] NODES = {{"node-A", "-2s"}, {"node-B", "0s"}, {"node-C", "3s"}};
    /** The node whose link to Redis goes through the proxy in the proxy scenarios, unless {@code --proxied} names another. */
    static final String PROXIED = "node-C";
    /** The timed jobs and their periods, as the checker expects them. */
    static final Map<String, Duration> SCHEDULES = schedules();
    /** Fire times are attempted from 3 s before (clock +3 s) to 2 s after (clock −2 s); plus 1 s of slack. */
    static final Duration MARGIN = Duration.ofSeconds(4);
    /** Fire times this close to the start or the end of the observation are not expected. */
    static final Duration EDGE = Duration.ofSeconds(4);
    /**
     * The retry job as the checker judges it: a fire time settles within 13 s of its first start, when its second
     * attempt died (first start 3 s early on the +3 s node, the attempt killed 1.5 s later, its lease gone by the next
     * regular firing 10 s after the fire time, which reports or re-runs it); 15 s with slack.
     */
    static final RetryVerdict.RetryJob RETRY_JOB = new RetryVerdict.RetryJob(JobWork.RETRYING, JobWork.RETRY_ATTEMPTS,
            Duration.ofSeconds(15));
    /** The nodes' job-guard namespace and key prefix (application.properties, job-guard's default prefix). */
    static final String NAMESPACE = "fault";
    private static final String KEY_PREFIX = "jobguard";
    /** The file of a job-guard run's directory that holds the retry job's history as Redis kept it at the end. */
    static final String RETRY_HISTORY = "history-" + JobWork.RETRYING + ".tsv";

    private FaultSuite() {
    }

    private static Map<String, Duration> schedules() {
        Map<String, Duration> s = new LinkedHashMap<>();
        s.put(JobWork.EVERY_SECOND, Duration.ofSeconds(1));
        s.put(JobWork.EVERY_2S_WAIT, Duration.ofSeconds(2));
        return s;
    }

    /**
     * Runs the suite.
     *
     * @param args see the class comment
     * @throws IOException if the output cannot be written
     */
    public static void main(String[] args) throws IOException {
        List<Scenario> scenarios = new ArrayList<>();
        List<String> libraries = List.of("job-guard", "shedlock");
        int seconds = 30;
        Path out = Path.of("target", "fault-suite");
        List<String> nodeArgs = new ArrayList<>();
        String proxied = PROXIED;
        if (args.length == 2 && args[0].equals("--recheck")) {
            recheck(Path.of(args[1]));
            return;
        }
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--scenario" -> scenarios.add(Scenario.fromCli(require(value, "--scenario")));
                case "--library" -> libraries = switch (require(value, "--library")) {
                    case "both" -> List.of("job-guard", "shedlock");
                    case "job-guard", "shedlock" -> List.of(value);
                    default -> throw new IllegalArgumentException("--library must be job-guard, shedlock or both, not '"
                            + value + "'");
                };
                case "--seconds" -> seconds = Integer.parseInt(require(value, "--seconds"));
                case "--out" -> out = Path.of(require(value, "--out"));
                case "--node-arg" -> nodeArgs.add(require(value, "--node-arg"));
                case "--proxied" -> proxied = nodeName(require(value, "--proxied"));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i]
                        + "'; usage: [--scenario NAME ...] [--library job-guard|shedlock|both] [--seconds N] [--node-arg ARG ...]"
                        + " [--proxied node-A|node-B|node-C] [--out DIR]");
            }
            i++;
        }
        if (seconds < 20) {
            throw new IllegalArgumentException("--seconds must be at least 20 (the longest fault lasts 10 s), not "
                    + seconds);
        }
        if (scenarios.isEmpty()) {
            scenarios.addAll(List.of(Scenario.values()));
        }
        Path runDir = out.resolve("run-" + Instant.now().truncatedTo(ChronoUnit.SECONDS).toString().replace(':', '-'));
        Files.createDirectories(runDir);
        Path table = runDir.resolve("results.md");
        Files.writeString(table, header(seconds));
        String classpath = System.getProperty("java.class.path");
        for (Scenario scenario : scenarios) {
            for (String library : libraries) {
                String row;
                if (scenario.jobGuardOnly && !library.equals("job-guard")) {
                    row = "| " + scenario.description + " | " + library + " | - | - | - | - | - | - | - | n/a | not run: "
                            + library + " has no retries |\n";
                    Files.writeString(table, row, StandardOpenOption.APPEND);
                    System.out.print(row);
                    continue;
                }
                try {
                    Result result = run(scenario, library, seconds, runDir, classpath, nodeArgs, proxied);
                    row = result.row();
                } catch (Exception e) {
                    row = "| " + scenario.description + " | " + library + " | | | | | | | | | run failed: "
                            + e.toString().replace('|', '/').replace('\n', ' ') + " |\n";
                    e.printStackTrace();
                }
                Files.writeString(table, row, StandardOpenOption.APPEND);
                System.out.print(row);
            }
        }
        System.out.println();
        System.out.println("table written to " + table.toAbsolutePath());
    }

    private static void recheck(Path runDir) throws IOException {
        StringBuilder table = new StringBuilder(header(-1));
        List<Path> dirs;
        try (var list = Files.list(runDir)) {
            dirs = list.filter(d -> Files.exists(d.resolve(LedgerChecker.RUNNER_LEDGER))).sorted().toList();
        }
        for (Scenario scenario : Scenario.values()) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                String library = name.startsWith(scenario.cliName() + "-") ? name.substring(scenario.cliName().length() + 1)
                        : null;
                if (library != null && (library.equals("job-guard") || library.equals("shedlock"))) {
                    try {
                        table.append(new Result(scenario, library, checker().check(dir)).row());
                    } catch (IllegalArgumentException e) {
                        System.out.println("skipped " + dir + ": " + e.getMessage());
                    }
                }
            }
        }
        Path out = runDir.resolve("results-rechecked.md");
        Files.writeString(out, table);
        System.out.print(table);
        System.out.println("table written to " + out.toAbsolutePath());
    }

    /** The checker of every run: the timed jobs, the margins and the retry job. */
    static LedgerChecker checker() {
        return new LedgerChecker(SCHEDULES, MARGIN, EDGE, RETRY_JOB);
    }

    private static String nodeName(String name) {
        for (String[] node : NODES) {
            if (node[0].equals(name)) {
                return name;
            }
        }
        throw new IllegalArgumentException("--proxied must name a node (node-A, node-B, node-C), not '" + name + "'");
    }

    private static String require(String value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    static String header(int seconds) {
        return (seconds < 0 ? "Ledgers re-checked" : "Observed " + seconds + " s per run") + "; 3 node JVMs (scheduler clocks -2 s, 0, +3 s); jobs: every-second"
                + " (RETURN, 400 ms) and every-2s-wait (WAIT, 700 ms), lease 5 s; batches of 3 of 12 keys; job-guard only:"
                + " retry-failing (every 10 s, 3 attempts 1 s apart, attempts 1 and 2 fail, lease 5 s).\n\n"
                + "| fault | library | fire times | ran twice | overlaps (token out of order) "
                + "| never ran: inside / outside window | recovery "
                + "| start delay of every-second: p99 / worst; worst in the fault window off the node hit "
                + "| batch: two holders of a key (token out of order) "
                + "| retries: attempts run twice / fire times without one final outcome, of started | notes |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n";
    }

    /**
     * One scenario with one library: starts everything, injects, stops, checks.
     *
     * @param scenario  the fault
     * @param library   {@code job-guard} or {@code shedlock}
     * @param seconds   how long the nodes are observed after all are up
     * @param parent    where the run's directory (ledgers, logs) is created
     * @param classpath the node JVMs' class path
     * @param nodeArgs  extra Spring Boot arguments for every node
     * @return the verdict and its table row
     * @throws Exception if the run cannot be set up
     */
    static Result run(Scenario scenario, String library, int seconds, Path parent, String classpath,
                      List<String> nodeArgs) throws Exception {
        return run(scenario, library, seconds, parent, classpath, nodeArgs, PROXIED);
    }

    /**
     * One scenario with one library, the proxy scenarios' fault on {@code proxied}'s link.
     *
     * @param scenario  the fault
     * @param library   {@code job-guard} or {@code shedlock}
     * @param seconds   how long the nodes are observed after all are up
     * @param parent    where the run's directory (ledgers, logs) is created
     * @param classpath the node JVMs' class path
     * @param nodeArgs  extra Spring Boot arguments for every node
     * @param proxied   the node whose link to Redis goes through the proxy (proxy scenarios only)
     * @return the verdict and its table row
     * @throws Exception if the run cannot be set up
     */
    static Result run(Scenario scenario, String library, int seconds, Path parent, String classpath,
                      List<String> nodeArgs, String proxied) throws Exception {
        if (scenario.jobGuardOnly && !library.equals("job-guard")) {
            throw new IllegalArgumentException(scenario.cliName() + " needs job-guard's retries; " + library
                    + " has none");
        }
        Path dir = parent.resolve(scenario.cliName() + "-" + library);
        Files.createDirectories(dir);
        System.out.printf("== %s with %s (ledgers and logs in %s)%n", scenario.cliName(), library, dir);
        List<NodeJvm> nodes = new ArrayList<>();
        try (RedisSetup redis = switch (scenario.topology) {
                case SENTINEL -> RedisSetup.startSentinel();
                case CLUSTER -> RedisSetup.startCluster();
                default -> RedisSetup.startStandalone();
            };
             TcpProxy proxy = scenario.topology == Scenario.Topology.PROXIED
                     ? TcpProxy.start(redis.primary().host(), redis.primary().port()) : null;
             RunnerLedger ledger = new RunnerLedger(dir.resolve(LedgerChecker.RUNNER_LEDGER))) {
            try {
                for (String[] node : NODES) {
                    List<String> redisArgs = proxy != null && node[0].equals(proxied)
                            ? List.of("--spring.data.redis.host=" + proxy.host(), "--spring.data.redis.port=" + proxy.port())
                            : redis.springArgs();
                    List<String> args = new ArrayList<>(redisArgs);
                    args.addAll(nodeArgs);
                    nodes.add(NodeJvm.start(node[0], node[1], library, dir, classpath, args));
                }
                awaitReady(nodes);
                long allReady = ledger.write("ALL_READY", "-");
                long injectAt = allReady + Math.max(8_000, seconds * 1000L / 3);
                sleepUntil(injectAt);
                try (FaultRunImpl run = new FaultRunImpl(nodes, redis, proxy, proxied, ledger)) {
                    scenario.inject(run);
                    long end = Math.max(allReady + seconds * 1000L, System.currentTimeMillis() + 10_000);
                    sleepUntil(end);
                    if (library.equals("job-guard") && scenario.topology != Scenario.Topology.CLUSTER) {
                        writeRetryHistory(run, dir.resolve(RETRY_HISTORY));
                    }
                }
                ledger.write("STOP", "-");
            } finally {
                nodes.forEach(NodeJvm::stop);
            }
        }
        LedgerChecker.Verdict verdict = checker().check(dir);
        String label = library + (scenario.topology == Scenario.Topology.PROXIED && !proxied.equals(PROXIED) ? " (" + proxied + " proxied)" : "");
        return new Result(scenario, nodeArgs.isEmpty() ? label : label + " " + String.join(" ", nodeArgs),
                verdict);
    }

    /**
     * Keeps the retry job's history as Redis holds it at the end of the observation, one entry a line:
     * {@code nominalFireTimeMillis attempt outcome node token atMillis}, newest first. A second account of the
     * attempts beside the ledgers (the checker reads only the ledgers); after a data loss it may hold less.
     */
    private static void writeRetryHistory(FaultRunImpl run, Path file) throws IOException {
        StringBuilder out = new StringBuilder();
        try {
            for (RunHistory.FireEntry e : run.history(JobWork.RETRYING, 40)) {
                out.append(e.nominalFireTime().toEpochMilli()).append('\t').append(e.attempt()).append('\t')
                        .append(e.outcome()).append('\t').append(e.node()).append('\t').append(e.fencingToken())
                        .append('\t').append(e.at() == null ? "-" : Long.toString(e.at().toEpochMilli())).append('\n');
            }
        } catch (RuntimeException e) {
            out.append("# not read: ").append(e.toString().replace('\n', ' ')).append('\n');
        }
        Files.writeString(file, out);
    }

    private static void awaitReady(List<NodeJvm> nodes) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (!nodes.stream().allMatch(NodeJvm::ready)) {
            for (NodeJvm node : nodes) {
                if (!node.alive()) {
                    throw new IllegalStateException(node.name() + " exited during startup; see " + node.log());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the nodes were not ready within 180 s; see the logs in "
                        + nodes.get(0).log().getParent());
            }
            Thread.sleep(100);
        }
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    /** The runner's own ledger: observation and fault window times, nodes it SIGKILLed. */
    static final class RunnerLedger implements AutoCloseable {
        private final OutputStream out;

        RunnerLedger(Path file) throws IOException {
            out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }

        synchronized long write(String event, String subject) {
            long now = System.currentTimeMillis();
            try {
                out.write((now + "\t" + event + "\trunner\t" + subject + "\t0\t-1\tfalse\t-\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return now;
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** What a scenario's injection sees; reads the job's run record and history through a store of its own. */
    private static final class FaultRunImpl implements Scenario.FaultRun, AutoCloseable {
        private final List<NodeJvm> nodes;
        private final RedisSetup redis;
        private final TcpProxy proxy;
        private final String proxied;
        private final RunnerLedger ledger;
        private LettuceConnectionFactory factory;
        private RedisLeaseStore store;

        FaultRunImpl(List<NodeJvm> nodes, RedisSetup redis, TcpProxy proxy, String proxied, RunnerLedger ledger) {
            this.proxied = proxied;
            this.nodes = nodes;
            this.redis = redis;
            this.proxy = proxy;
            this.ledger = ledger;
        }

        @Override
        public List<NodeJvm> nodes() {
            return nodes;
        }

        @Override
        public RedisSetup redis() {
            return redis;
        }

        @Override
        public TcpProxy proxy() {
            return proxy;
        }

        @Override
        public NodeJvm proxied() {
            return nodes.stream().filter(n -> n.name().equals(proxied)).findFirst().orElseThrow();
        }

        /** The nodes' store, as a reader: job-guard's own record of a job, for timing a fault and the history file. */
        private RedisLeaseStore store() {
            if (store == null) {
                factory = redis.primary().connectionFactory(Duration.ofSeconds(2));
                store = RedisLeaseStore.create(factory, KEY_PREFIX);
            }
            return store;
        }

        List<RunHistory.FireEntry> history(String job, int max) {
            return store().fireHistory(new JobId(NAMESPACE, job), max);
        }

        @Override
        public NodeJvm awaitHolder() {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline) {
                for (NodeJvm node : nodes) {
                    if (node.alive() && node.running(JobWork.EVERY_SECOND)) {
                        return node;
                    }
                }
                sleep(Duration.ofMillis(20));
            }
            throw new IllegalStateException("no node was running " + JobWork.EVERY_SECOND + " within 20 s");
        }

        @Override
        public NodeJvm awaitAttemptRunning(String job, int attempt, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (NodeJvm node : nodes) {
                    if (node.alive() && node.runningAttempt(job) == attempt) {
                        return node;
                    }
                }
                sleep(Duration.ofMillis(10));
            }
            throw new IllegalStateException("no node was running attempt " + attempt + " of " + job + " within "
                    + timeout.toSeconds() + " s");
        }

        @Override
        public FailedAttempt awaitAttemptFailed(String job, int attempt, Duration timeout) {
            JobId id = new JobId(NAMESPACE, job);
            // the first read opens the reader's connection (seconds in a cold JVM): done before the failure, whose
            // next attempt is pending only for its back-off
            store().runRecord(id);
            long since = System.currentTimeMillis();
            long deadline = System.nanoTime() + timeout.toNanos();
            FailedAttempt failed = null;
            List<FailedAttempt> missed = new ArrayList<>();
            while (System.nanoTime() < deadline) {
                if (failed == null) {
                    failed = firstEnd(job, attempt, since);
                }
                if (failed != null) {
                    // the end line is written before the attempt throws; its release, which leaves the next attempt
                    // pending, follows: a node stopped before it lands would hold its lease and leave nothing pending
                    RunRecord.PendingRetry pending = store().runRecord(id).map(RunRecord::retry).orElse(null);
                    if (pending != null && pending.fireTime().toEpochMilli() == failed.nominalFireTime()
                            && pending.failedAttempt() == attempt) {
                        return failed;
                    }
                    if (failed.node().runningAttempt(job) != 0 || startedAfter(job, failed)) {
                        // the next attempt was taken before this look: wait for the next failure
                        missed.add(failed);
                        since = System.currentTimeMillis();
                        failed = null;
                    }
                }
                sleep(Duration.ofMillis(10));
            }
            throw new IllegalStateException("no attempt " + attempt + " of " + job + " failed and left its next one "
                    + "pending within " + timeout.toSeconds() + " s" + (failed == null ? "" : " (one ended: " + failed + ")")
                    + (missed.isEmpty() ? "" : "; seen too late: " + missed));
        }

        /** Whether any node started an attempt of {@code failed}'s fire time after it. */
        private boolean startedAfter(String job, FailedAttempt failed) {
            for (NodeJvm node : nodes) {
                for (String line : node.ledgerLines()) {
                    LedgerChecker.Event e = LedgerChecker.Event.parse(line);
                    if (e != null && e.event().equals(NodeLedger.START) && e.job().equals(job)
                            && e.id() == failed.nominalFireTime() && e.token() > failed.token()) {
                        return true;
                    }
                }
            }
            return false;
        }

        private FailedAttempt firstEnd(String job, int attempt, long since) {
            for (NodeJvm node : nodes) {
                for (String line : node.ledgerLines()) {
                    LedgerChecker.Event e = LedgerChecker.Event.parse(line);
                    if (e != null && e.wall() >= since && e.event().equals(NodeLedger.END) && e.job().equals(job)
                            && e.keys().equals(List.of(Integer.toString(attempt)))) {
                        return new FailedAttempt(node, e.id(), e.token());
                    }
                }
            }
            return null;
        }

        @Override
        public boolean awaitLedgers(Duration timeout, Predicate<List<LedgerChecker.Event>> condition) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                List<LedgerChecker.Event> events = new ArrayList<>();
                for (NodeJvm node : nodes) {
                    node.ledgerLines().stream().map(LedgerChecker.Event::parse).filter(java.util.Objects::nonNull)
                            .forEach(events::add);
                }
                events.sort(java.util.Comparator.comparingLong(LedgerChecker.Event::wall));
                if (condition.test(events)) {
                    return true;
                }
                sleep(Duration.ofMillis(50));
            }
            return false;
        }

        @Override
        public void faultStart() {
            ledger.write("FAULT_START", "-");
        }

        @Override
        public void faultEnd() {
            ledger.write("FAULT_END", "-");
        }

        @Override
        public void killed(NodeJvm node) {
            ledger.write("KILLED", node.name());
        }

        @Override
        public void hit(NodeJvm node) {
            ledger.write("HIT", node.name());
        }

        @Override
        public void note(String note) {
            ledger.write("NOTE", note.replace('\t', ' ').replace('\n', ' '));
        }

        @Override
        public void sleep(Duration duration) {
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        @Override
        public void close() {
            if (store != null) {
                store.close();
            }
            if (factory != null) {
                factory.destroy();
            }
        }
    }

    /**
     * A scenario's verdict and its table row.
     *
     * @param scenario the fault
     * @param library  the library
     * @param verdict  the checker's verdict
     */
    record Result(Scenario scenario, String library, LedgerChecker.Verdict verdict) {

        String row() {
            LedgerChecker.Verdict v = verdict;
            return "| " + scenario.description + " | " + library + " | " + v.fireTimes() + " | " + v.ranTwice()
                    + " | " + v.overlaps() + " (" + v.outOfOrder() + ") | " + v.missedInside() + " / "
                    + v.missedOutside() + " | " + (v.recoveryMillis() == null ? "-"
                    : String.format("%.1f s", v.recoveryMillis() / 1000.0)) + " | "
                    + (v.startDelays() == null ? "-" : v.startDelays().cell()) + " | " + v.batchTwoHolders() + " ("
                    + v.batchOutOfOrder() + ") of " + v.batches() + " | " + retryCell() + " | "
                    + String.join("; ", v.notes()).replace('|', '/') + " |\n";
        }

        /** The retry column: n/a for ShedLock, which has no retries. */
        private String retryCell() {
            if (!library.startsWith("job-guard")) {
                return "n/a";
            }
            return verdict.retry() == null ? "-" : verdict.retry().cell();
        }
    }
}
