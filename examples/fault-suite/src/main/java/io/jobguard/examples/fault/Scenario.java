package io.jobguard.examples.fault;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.TcpProxy;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The faults of the suite. Each is injected once, about a third into the observed window, between a
 * {@code FAULT_START} and a {@code FAULT_END} line in the runner's ledger; the window is the time the
 * fault acts (for a killed holder: until its lease would have run out).
 */
enum Scenario {

    /** No fault: the baseline. */
    NONE(Topology.STANDALONE, "no fault") {
        @Override
        void inject(FaultRun run) {
            // nothing
        }
    },
    /** The node running the every-second job is SIGKILLed mid-run; window = its lease. */
    SIGKILL_HOLDER(Topology.STANDALONE, "holder SIGKILLed mid-run") {
        @Override
        void inject(FaultRun run) {
            NodeJvm holder = run.awaitHolder();
            run.hit(holder);
            run.hold(() -> {
                run.killed(holder);
                holder.sigkill();
            }, JobWork.LEASE);
        }
    },
    /** The holder is SIGSTOPped for lease + 3 s, then continued. */
    SIGSTOP_HOLDER(Topology.STANDALONE, "holder SIGSTOPped past its lease (8 s)") {
        @Override
        void inject(FaultRun run) {
            NodeJvm holder = run.awaitHolder();
            run.hit(holder);
            run.hold(() -> holder.signal("STOP"), JobWork.LEASE.plusSeconds(3), () -> holder.signal("CONT"));
        }
    },
    /** Redis shut down for 10 s, then started empty (no persistence). */
    REDIS_STOP(Topology.STANDALONE, "Redis stopped 10 s (returns empty)") {
        @Override
        void inject(FaultRun run) {
            RedisServerProcess redis = run.redis().primary();
            run.hold(redis::stop, Duration.ofSeconds(10), redis::restart);
        }
    },
    /** Redis restarted at once while a run holds its lease: every key is lost. */
    REDIS_RESTART(Topology.STANDALONE, "Redis restarted, keys lost") {
        @Override
        void inject(FaultRun run) {
            run.awaitHolder();
            run.faultStart();
            run.redis().primary().restart();
            run.faultEnd();
        }
    },
    /** {@code CLIENT PAUSE 5000 ALL}. */
    CLIENT_PAUSE(Topology.STANDALONE, "CLIENT PAUSE 5 s") {
        @Override
        void inject(FaultRun run) {
            run.hold(() -> run.redis().primary().call("CLIENT", "PAUSE", "5000", "ALL"), Duration.ofSeconds(5));
        }
    },
    /** {@code CLIENT KILL TYPE normal} every 2 s, five times. */
    CLIENT_KILL(Topology.STANDALONE, "CLIENT KILL every 2 s (5×)") {
        @Override
        void inject(FaultRun run) {
            run.repeat(5, () -> run.redis().primary().call("CLIENT", "KILL", "TYPE", "normal"),
                    Duration.ofSeconds(2));
        }
    },
    /** {@code FLUSHALL} while a run of the every-second job is in flight. */
    FLUSHALL(Topology.STANDALONE, "FLUSHALL during a run") {
        @Override
        void inject(FaultRun run) {
            run.awaitHolder();
            run.hold(() -> run.redis().primary().flushAll(), Duration.ofSeconds(1));
        }
    },
    /** maxmemory just above use with allkeys-lru, and 5 MB/s of other data for 10 s. */
    EVICTION(Topology.STANDALONE, "maxmemory + allkeys-lru eviction, 10 s") {
        @Override
        void inject(FaultRun run) {
            RedisServerProcess redis = run.redis().primary();
            String memory = redis.info("memory");
            long used = Long.parseLong(memory.lines().filter(l -> l.startsWith("used_memory:")).findFirst()
                    .orElseThrow().substring("used_memory:".length()).trim());
            redis.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            redis.call("CONFIG", "SET", "maxmemory", Long.toString(used + 1024 * 1024));
            run.faultStart();
            String junk = "x".repeat(64 * 1024);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            int n = 0;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < 20; i++) {
                    redis.call("SET", "other-data:" + n++, junk);
                }
                run.sleep(Duration.ofMillis(250));
            }
            redis.call("CONFIG", "SET", "maxmemory", "0");
            run.faultEnd();
            run.note("evicted_keys:" + redis.info("stats").lines().filter(l -> l.startsWith("evicted_keys:"))
                    .findFirst().orElse("?").substring("evicted_keys:".length()).trim());
        }
    },
    /**
     * Sentinel failover that loses the last writes: the replica is SIGSTOPped and its link cut, the
     * primary keeps granting for 1.5 s, then is shut down; the replica continues and is promoted.
     */
    SENTINEL_FAILOVER(Topology.SENTINEL, "Sentinel failover, last writes not replicated") {
        @Override
        void inject(FaultRun run) {
            RedisSetup.Sentinel sentinel = (RedisSetup.Sentinel) run.redis();
            RedisServerProcess primary = sentinel.primary();
            RedisServerProcess replica = sentinel.replica();
            run.awaitHolder();
            run.faultStart();
            replica.pause();
            primary.call("CLIENT", "KILL", "TYPE", "replica");
            run.sleep(Duration.ofMillis(1500));
            primary.stop();
            replica.resume();
            RedisSetup.await(Duration.ofSeconds(40), "Sentinel to promote the replica", () -> sentinel.primary() == replica
                    && ((String) replica.call("INFO", "replication")).contains("role:master"));
            // the old primary returns (empty, no persistence) and Sentinel makes it the new primary's replica, as an
            // operator's restart would: until then durable acquire has no replica to wait for and refuses every firing
            primary.restart();
            RedisSetup.await(Duration.ofSeconds(40), "the old primary to rejoin as a replica", () ->
                    ((String) replica.call("INFO", "replication")).contains("state=online"));
            run.faultEnd();
        }
    },
    /** The Redis Cluster master that holds the every-second job's key is shut down for 10 s, then rejoins empty. */
    CLUSTER_MASTER_KILL(Topology.CLUSTER, "Redis Cluster master (job's slot) down 10 s") {
        @Override
        void inject(FaultRun run) {
            RedisSetup.Cluster cluster = (RedisSetup.Cluster) run.redis();
            run.awaitHolder();
            RedisServerProcess master = cluster.cluster().masters().stream()
                    .filter(m -> !keysLike(m, "*" + JobWork.EVERY_SECOND + "*").isEmpty()).findFirst()
                    .orElse(cluster.cluster().masters().get(0));
            run.hold(master::stop, Duration.ofSeconds(10), () -> cluster.cluster().ensureRunning());
        }
    },
    /** node-C's link to Redis delayed 850 ms each way (1.7 s per round trip) for 10 s. */
    PROXY_DELAY(Topology.PROXIED, "node-C's link delayed 1.7 s per round trip, 10 s") {
        @Override
        void inject(FaultRun run) {
            run.hit(run.proxied());
            TcpProxy proxy = run.proxy();
            run.hold(() -> proxy.delay(Duration.ofMillis(850)), Duration.ofSeconds(10),
                    () -> proxy.delay(Duration.ZERO));
        }
    },
    /** node-C's connections to Redis cut every 2 s, five times. */
    PROXY_DROP(Topology.PROXIED, "node-C's connections cut every 2 s (5×)") {
        @Override
        void inject(FaultRun run) {
            run.hit(run.proxied());
            run.repeat(5, run.proxy()::dropConnections, Duration.ofSeconds(2));
        }
    },
    /** node-C's link discards everything for 10 s; then its connections are cut and it may reconnect. */
    PROXY_BLACKHOLE(Topology.PROXIED, "node-C's link blackholed 10 s") {
        @Override
        void inject(FaultRun run) {
            run.hit(run.proxied());
            TcpProxy proxy = run.proxy();
            run.hold(proxy::blackhole, Duration.ofSeconds(10), () -> {
                proxy.dropConnections();
                proxy.resume();
            });
        }
    },
    /** node-B's scheduler clock stepped 30 s forward for 10 s, then back. */
    CLOCK_STEP(Topology.STANDALONE, "node-B's scheduler clock +30 s for 10 s, then back") {
        @Override
        void inject(FaultRun run) {
            NodeJvm node = run.nodes().get(1);
            run.hit(node);
            run.hold(() -> node.stepClock(30_000), Duration.ofSeconds(10), () -> node.stepClock(0));
        }
    },
    /**
     * The node running attempt 2 of the retry job (a fire time's first retry, run by a recovery pass) is SIGKILLed
     * mid-run and stays dead; window = its lease. The job's delivery decides what follows: under
     * {@code AT_MOST_ONCE} (the default) the next regular firing reports the fire time {@code ABANDONED} once and it
     * never runs again; under {@code AT_LEAST_ONCE} the dead attempt runs again once, as attempt 3, with a higher
     * fencing token. job-guard only: ShedLock has no retries.
     */
    RETRY_SIGKILL(Topology.STANDALONE, "node running a retry (attempt 2) SIGKILLed mid-run", true) {
        @Override
        void inject(FaultRun run) {
            NodeJvm node = run.awaitAttemptRunning(JobWork.RETRYING, 2, Duration.ofSeconds(30));
            run.hit(node);
            run.hold(() -> {
                run.killed(node);
                node.sigkill();
            }, JobWork.LEASE);
        }
    },
    /**
     * The node whose attempt 1 of the retry job just failed is SIGSTOPped as soon as the store holds attempt 2
     * pending (before its own pass, which the failure woke, runs it a back-off later), and continued once another
     * node started attempt 2 or the fire time got its final outcome (at most 75 s). The other nodes' passes look for
     * due attempts at least once a minute, so a pending attempt runs on another node when that comes before the job's
     * next fire time, and is superseded ({@code RETRY_SUPERSEDED}) when the next fire time starts first, as it
     * more often than not does with the default 10 s schedule. job-guard only.
     */
    RETRY_SIGSTOP(Topology.STANDALONE, "node whose attempt 1 failed SIGSTOPped until attempt 2 ran elsewhere or was superseded",
            true) {
        @Override
        void inject(FaultRun run) {
            FaultRun.FailedAttempt failed = run.awaitAttemptFailed(JobWork.RETRYING, 1, Duration.ofSeconds(130));
            NodeJvm node = failed.node();
            run.hit(node);
            run.faultStart();
            node.signal("STOP");
            boolean decided = run.awaitLedgers(Duration.ofSeconds(75), events -> events.stream().anyMatch(e ->
                    e.job().equals(JobWork.RETRYING) && e.id() == failed.nominalFireTime()
                            && (e.event().equals(NodeLedger.START) && !e.node().equals(node.name())
                            || e.event().equals(NodeLedger.OUTCOME) && !e.keys().isEmpty()
                            && RetryVerdict.FINAL.contains(e.keys().get(0).split(":")[0]))));
            node.signal("CONT");
            run.faultEnd();
            run.note(node.name() + " stopped after attempt 1 of " + JobWork.RETRYING + "@"
                    + LedgerChecker.fireTimeText(failed.nominalFireTime())
                    + (decided ? "" : ": nothing decided it within 75 s"));
        }
    };

    /** Which Redis a scenario needs. */
    enum Topology { STANDALONE, SENTINEL, CLUSTER, PROXIED }

    final Topology topology;
    final String description;
    /** Whether the scenario needs job-guard's retries: ShedLock, which has none, is not run with it. */
    final boolean jobGuardOnly;

    Scenario(Topology topology, String description) {
        this(topology, description, false);
    }

    Scenario(Topology topology, String description, boolean jobGuardOnly) {
        this.topology = topology;
        this.description = description;
        this.jobGuardOnly = jobGuardOnly;
    }

    abstract void inject(FaultRun run);

    /** The command-line name, e.g. {@code sigkill-holder}. */
    String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Scenario fromCli(String name) {
        for (Scenario s : values()) {
            if (s.cliName().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown --scenario '" + name + "'; known: "
                + java.util.Arrays.stream(values()).map(Scenario::cliName).toList());
    }

    private static List<?> keysLike(RedisServerProcess master, String pattern) {
        Object reply = master.call("KEYS", pattern);
        return reply instanceof List<?> list ? list : List.of();
    }

    /** What an injection can do: see the nodes and Redis, find the holder, record the window. */
    interface FaultRun {
        List<NodeJvm> nodes();

        RedisSetup redis();

        TcpProxy proxy();

        NodeJvm awaitHolder();

        /**
         * The node running attempt {@code attempt} of {@code job} now, as its ledger says.
         *
         * @param job     the job
         * @param attempt the attempt
         * @param timeout how long to look
         * @return the node
         * @throws IllegalStateException if no node ran it within {@code timeout}
         */
        NodeJvm awaitAttemptRunning(String job, int attempt, Duration timeout);

        /**
         * The first failure of attempt {@code attempt} of {@code job} after this call began: its end line in a
         * node's ledger, returned once the store holds the next attempt of that fire time pending (the node's
         * release has landed).
         *
         * @param job     the job
         * @param attempt the attempt
         * @param timeout how long to look
         * @return the node and the fire time
         * @throws IllegalStateException if none failed within {@code timeout}
         */
        FailedAttempt awaitAttemptFailed(String job, int attempt, Duration timeout);

        /**
         * Waits until {@code condition} holds over the events of every node's ledger.
         *
         * @param timeout   how long to wait
         * @param condition over the parsed lines of all nodes, in the order of their wall times
         * @return whether it held within {@code timeout}
         */
        boolean awaitLedgers(Duration timeout, java.util.function.Predicate<List<LedgerChecker.Event>> condition);

        void faultStart();

        void faultEnd();

        void killed(NodeJvm node);

        /**
         * Records the one node a fault hits (the runner's {@code HIT} line): the checker measures how late the fire
         * times in the fault window started on the other nodes.
         *
         * @param node the node
         */
        void hit(NodeJvm node);

        /** The node whose link to Redis goes through the proxy (node-C unless {@code --proxied} names another). */
        NodeJvm proxied();

        void note(String note);

        void sleep(Duration duration);

        /**
         * An attempt that failed and left its next one pending.
         *
         * @param node            the node that ran it
         * @param nominalFireTime its fire time (epoch ms)
         * @param token           its fencing token
         */
        record FailedAttempt(NodeJvm node, long nominalFireTime, long token) {
        }

        /**
         * The common shape of a fault: between {@code FAULT_START} and {@code FAULT_END}, {@code begin},
         * then {@code duration}, then {@code end}.
         *
         * @param begin    injects the fault
         * @param duration how long it acts
         * @param end      lifts it
         */
        default void hold(Runnable begin, Duration duration, Runnable end) {
            faultStart();
            begin.run();
            sleep(duration);
            end.run();
            faultEnd();
        }

        /**
         * A fault that lifts itself (or cannot be lifted): between {@code FAULT_START} and
         * {@code FAULT_END}, {@code begin}, then {@code duration}.
         *
         * @param begin    injects the fault
         * @param duration how long it acts
         */
        default void hold(Runnable begin, Duration duration) {
            hold(begin, duration, () -> { });
        }

        /**
         * A repeated fault: between {@code FAULT_START} and {@code FAULT_END}, {@code times} times
         * {@code action} and then {@code pause}.
         *
         * @param times  how often
         * @param action one injection
         * @param pause  after each
         */
        default void repeat(int times, Runnable action, Duration pause) {
            faultStart();
            for (int i = 0; i < times; i++) {
                action.run();
                sleep(pause);
            }
            faultEnd();
        }
    }
}
