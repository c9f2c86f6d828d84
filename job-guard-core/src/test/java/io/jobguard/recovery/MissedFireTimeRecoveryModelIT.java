package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model test of missed-fire-time recovery on a real redis-server: three nodes (clocks −2 s, 0 and +3 s off a
 * virtual clock the test moves) fire an every-second job through {@link MissedFireTimeRecovery} while a seeded random
 * sequence of steps stops single nodes or all of them, starts them again (with the same node ids and a start-up
 * pass), kills a node inside a catch-up run, kills a node right after every second call that declared the fire times it passes over (a
 * gap's first catch-up, granted, or a miss declaration), before it reports or runs anything, fails a node's acquire calls before they reach
 * Redis (the store unreachable from it: {@code STORE_ERROR}), and runs background passes on the same node concurrently
 * with its scheduler firings. After every step the rule is checked on the ledger of what happened to each fire time:
 * the runs each node's job body started, and the {@code MISSED} entries of the job's recent fire times in Redis (the
 * record, not what a node told its listeners), and its {@code ABANDONED} entries of fire times whose granted run never
 * began (its node died right after the grant):
 * <ul>
 *   <li>no fire time started twice, or started and reported {@code MISSED}, or reported twice;</li>
 *   <li>every fire time from the job's first run up to the latest one that a call has settled has exactly one of
 *       those: a regular firing of T that returned (granted, or refused as already run) settles every fire time
 *       up to T; a start-up pass that returned true settles every fire time up to its clock's now less the skew
 *       tolerance.</li>
 * </ul>
 * The seed is printed with every failure; {@code -Djobguard.model.seed=...} replays one sequence and
 * {@code -Djobguard.model.steps=...} makes it longer.
 */
@WithRedis
class MissedFireTimeRecoveryModelIT {

    private static final long PERIOD = 1000;
    private static final long[] SKEWS = {-2000, 0, 3000};
    private static final int STEPS = Integer.getInteger("jobguard.model.steps", 150);
    /** Recent fire times kept: more than the fire times a sequence has, so the checker sees every recorded one. */
    private static final int HISTORY = 5_000;
    /** Nodes killed right after declaring fire times, over all the sequences of a run of this class. */
    private static final AtomicInteger KILLED_AFTER_DECLARING = new AtomicInteger();
    private static final FireTimeSchedule EVERY_SECOND = after -> Instant.ofEpochMilli(
            Math.floorDiv(after.toEpochMilli(), PERIOD) * PERIOD + PERIOD);

    private final RedisServerProcess redis;
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    MissedFireTimeRecoveryModelIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterAll
    static void someNodesDiedRightAfterDeclaring() {
        assertThat(KILLED_AFTER_DECLARING.get()).as("nodes killed right after declaring fire times, in all sequences")
                .isPositive();
    }

    @AfterEach
    void close() {
        pool.shutdownNow();
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    static Stream<Arguments> cases() {
        Duration shortTolerance = Duration.ofSeconds(10);
        Duration defaultTolerance = JobGuardConfig.builder().build().skewTolerance();
        return Stream.of(Arguments.of(MisfirePolicy.RUN_ALL, shortTolerance),
                Arguments.of(MisfirePolicy.RUN_ALL, defaultTolerance),
                Arguments.of(MisfirePolicy.RUN_LATEST, shortTolerance),
                Arguments.of(MisfirePolicy.RUN_LATEST, defaultTolerance),
                Arguments.of(MisfirePolicy.SKIP, shortTolerance),
                Arguments.of(MisfirePolicy.SKIP, defaultTolerance));
    }

    @ParameterizedTest(name = "{0}, skew tolerance {1}")
    @MethodSource("cases")
    void everyFireTimeStartsOnceOrIsReportedMissedOnceAfterEveryStep(MisfirePolicy policy, Duration tolerance)
            throws Exception {
        long seed = Long.getLong("jobguard.model.seed", System.nanoTime());
        Random random = new Random(seed);
        Model model = new Model("model-" + policy + "-" + tolerance.toSeconds() + "-" + Long.toHexString(seed),
                policy, tolerance, seed, RedisLeaseStore.create(factory(), "jgmodel"));
        for (int i = 0; i < SKEWS.length; i++) {
            model.nodes.add(new ModelNode("n" + (i + 1), SKEWS[i], model, factory()));
        }
        for (ModelNode node : model.nodes) {
            model.start(node);
        }
        // the job's first run (no record yet, so no gap check): the rule is judged from here on; the node
        // whose clock lags runs the fire times before it as regular firings too, which is allowed
        ModelNode zero = model.nodes.get(1);
        zero.next = model.now.get();
        model.first.set(zero.next);
        zero.fireDue();
        model.check("after the first run");
        for (int step = 0; step < STEPS; step++) {
            model.now.addAndGet(200 + random.nextInt(2300));
            double r = random.nextDouble();
            if (r < 0.06) {
                model.nodes.stream().filter(n -> n.live).forEach(model::stop);
            } else if (r < 0.18) {
                model.nodes.stream().filter(n -> n.live).skip(random.nextInt(3)).findFirst().ifPresent(model::stop);
            }
            for (ModelNode node : model.nodes) {
                if (!node.live && random.nextDouble() < 0.22) {
                    model.start(node);
                }
                node.dieInCatchUp = node.live && random.nextDouble() < 0.07;
                node.unreachable = node.live && random.nextDouble() < 0.1;
            }
            model.concurrently(random);
            model.check("after step " + step);
        }
        // everybody back for a while: the fire times of the last outage are settled too
        model.killAfterDeciding = false;
        for (ModelNode node : model.nodes) {
            node.dieInCatchUp = false;
            node.unreachable = false;
            if (!node.live) {
                model.start(node);
            }
        }
        for (int i = 0; i < 4; i++) {
            model.now.addAndGet(PERIOD);
            model.concurrently(random);
        }
        model.check("at the end");
        long settled = (model.settledUpTo.get() - model.first.get()) / PERIOD;
        assertThat(settled).as("fire times judged (seed %d)", seed).isGreaterThan(STEPS / 2);
        assertThat(model.trace).as("the sequence had outages that left fire times to recover (seed %d)", seed)
                .anyMatch(line -> line.contains("MISSED") || line.contains("catch-up"))
                .anyMatch(line -> line.contains("failed: unreachable"));
    }

    private LettuceConnectionFactory factory() {
        LettuceConnectionFactory factory = redis.connectionFactory(Duration.ofSeconds(5));
        factories.add(factory);
        return factory;
    }

    /** A process killed inside a catch-up run: nothing after it runs on that node. */
    private static final class Killed extends Error {
        private static final long serialVersionUID = 1L;

        Killed() {
            super("node killed in a catch-up run", null, false, false);
        }
    }

    /** The cluster, its virtual time, the ledger of every fire time and what the calls settled. */
    private final class Model {
        final String jobName;
        final JobOptions job;
        final RecoveryOptions recovery;
        final Duration tolerance;
        final long seed;
        // Virtual time runs faster than real time (up to 2.5 s + a period per step). It starts far enough behind
        // Redis' clock that no node's fire times ever run ahead of Redis: the fleet's clock leads stay 0, as on a
        // cluster with synchronised clocks, instead of growing at every step (a node whose lead grows waits for the
        // fleet to read it before it takes a fire time, which would make the model's virtual time crawl).
        final AtomicLong now = new AtomicLong(
                (Instant.now().toEpochMilli() - STEPS * (2_500L + 2 * PERIOD) - 600_000L) / PERIOD * PERIOD);
        final List<ModelNode> nodes = new ArrayList<>();
        final Map<Long, List<String>> ledger = new ConcurrentHashMap<>();
        final List<String> trace = new CopyOnWriteArrayList<>();
        final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
        final AtomicLong settledUpTo = new AtomicLong(Long.MIN_VALUE);
        /**
         * Every second call that declares the fire times it passes over (a gap's first catch-up, granted, or a miss
         * declaration) kills its node right after it, before the node reports or runs anything: 1st, 3rd, 5th, ...
         */
        volatile boolean killAfterDeciding = true;
        final AtomicInteger decisions = new AtomicInteger();
        /** Reads the job's recent fire times for the checker (a store of its own, never a node's). */
        final RedisLeaseStore history;

        Model(String jobName, MisfirePolicy policy, Duration tolerance, long seed, RedisLeaseStore history) {
            this.jobName = jobName;
            this.history = history;
            // a lease a killed node leaves behind blocks the job until it expires (in real time): short, so a
            // sequence with kills stays fast; runs are instant, so keep-alive never has to stretch it
            this.job = JobOptions.builder(jobName, Duration.ofSeconds(3)).build();
            this.recovery = RecoveryOptions.builder().misfirePolicy(policy).catchUpWindow(Duration.ofHours(1))
                    .catchUpMax(4).delivery(Delivery.AT_MOST_ONCE).maxAttempts(3).schedule(EVERY_SECOND).build();
            this.tolerance = tolerance;
            this.seed = seed;
        }

        void record(long fireTime, String what) {
            ledger.computeIfAbsent(fireTime, t -> new CopyOnWriteArrayList<>()).add(what);
            trace.add("T=" + fireTime + " " + what);
        }

        void settled(long upTo, String by) {
            settledUpTo.accumulateAndGet(upTo, Math::max);
            trace.add("settled up to " + upTo + " by " + by);
        }

        void start(ModelNode node) {
            node.start();
            trace.add(node.id + " started at " + node.clockNow());
            try {
                // the start-up pass, alone: when it reached the store for everything (true), every fire time up to
                // its now less the tolerance is settled
                if (node.missed.recover(job, recovery, node.body())) {
                    settled(node.clockNow() - tolerance.toMillis(), node.id + " start-up pass");
                }
            } catch (Killed e) {
                stop(node);
            }
        }

        void stop(ModelNode node) {
            node.stop();
            trace.add(node.id + " stopped");
        }

        /** Every live node fires what is due by its clock; some run a background pass on another thread meanwhile. */
        void concurrently(Random random) throws Exception {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (ModelNode node : nodes) {
                if (!node.live) {
                    continue;
                }
                tasks.add(() -> {
                    node.fireDue();
                    return null;
                });
                if (random.nextDouble() < 0.3) {
                    tasks.add(() -> {
                        node.backgroundPass();
                        return null;
                    });
                }
            }
            for (Future<Void> done : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                done.get();
            }
            nodes.stream().filter(n -> n.live && n.killed).forEach(this::stop);
        }

        void check(String when) {
            String context = when + " (seed " + seed + ", job " + jobName + "), last events:\n"
                    + String.join("\n", trace.subList(Math.max(0, trace.size() - 60), trace.size()));
            Map<Long, List<String>> outcomes = new ConcurrentHashMap<>();
            ledger.forEach((t, what) -> outcomes.put(t, new ArrayList<>(what)));
            for (RunHistory.FireEntry entry : history.fireHistory(new JobId("default", jobName), HISTORY)) {
                long t = entry.nominalFireTime().toEpochMilli();
                if (RunOutcome.MISSED.name().equals(entry.outcome())) {
                    outcomes.computeIfAbsent(t, k -> new ArrayList<>()).add("MISSED " + entry.node() + " (recorded)");
                } else if (RunOutcome.ABANDONED.name().equals(entry.outcome()) && !ledger.containsKey(t)) {
                    // granted, and its node died before the body started: the run that never began is its outcome
                    outcomes.computeIfAbsent(t, k -> new ArrayList<>()).add("ABANDONED " + entry.node() + " (recorded)");
                }
            }
            outcomes.forEach((t, what) -> assertThat(what).as("fire time %d %s", t, context).hasSizeLessThanOrEqualTo(1));
            for (long t = first.get(); t <= settledUpTo.get(); t += PERIOD) {
                assertThat(outcomes.getOrDefault(t, List.of())).as("fire time %d, settled, %s", t, context).hasSize(1);
            }
        }
    }

    /** One node: its engine (new at every start, same id), its scheduler's next fire time, its clock offset. */
    private static final class ModelNode {
        final String id;
        final long skew;
        final Model model;
        final LettuceConnectionFactory factory;
        volatile boolean live;
        volatile boolean killed;
        volatile boolean dieInCatchUp;
        /** This step, a third of this node's acquire calls fail before they reach Redis (STORE_ERROR). */
        volatile boolean unreachable;
        JobGuard guard;
        RedisLeaseStore store;
        MissedFireTimeRecovery missed;
        long next;

        ModelNode(String id, long skew, Model model, LettuceConnectionFactory factory) {
            this.id = id;
            this.skew = skew;
            this.model = model;
            this.factory = factory;
        }

        long clockNow() {
            return model.now.get() + skew;
        }

        void start() {
            store = RedisLeaseStore.create(factory, "jgmodel");
            Clock clock = new Clock() {
                @Override
                public ZoneId getZone() {
                    return ZoneOffset.UTC;
                }

                @Override
                public Clock withZone(ZoneId zone) {
                    return this;
                }

                @Override
                public Instant instant() {
                    return Instant.ofEpochMilli(clockNow());
                }
            };
            guard = JobGuard.create(new UnreachableStore(store, () -> unreachable, failed -> model.trace.add(id
                    + " acquire " + failed + " failed: unreachable"), (fireTime, answer) -> {
                        if (model.killAfterDeciding && model.decisions.getAndIncrement() % 2 == 0) {
                            killed = true;
                            model.trace.add(id + " killed right after declaring fire times");
                            KILLED_AFTER_DECLARING.incrementAndGet();
                            if (answer.status() == AcquireResult.Status.ACQUIRED) {
                                // a granted catch-up is taken: its run started, and died before its body (ABANDONED
                                // once its lease expires)
                                model.record(fireTime.toEpochMilli(), "GRANTED " + id + " catch-up, killed before its body");
                            }
                            throw new Killed();
                        }
                    }), JobGuardConfig.builder()
                            .node(NodeConfig.builder().nodeId(id).build()).skewTolerance(model.tolerance)
                    .historySize(HISTORY).clock(clock).build());
            guard.addListener(event -> {
                if (event.outcome() == RunOutcome.MISSED) {
                    model.trace.add("T=" + event.nominalFireTime().toEpochMilli() + " MISSED reported by " + id);
                }
            });
            missed = ((JobGuardEngine) guard).missedFireTimeRecovery();
            // a restarted scheduler fires the grid from now on
            next = EVERY_SECOND.next(Instant.ofEpochMilli(clockNow())).toEpochMilli();
            killed = false;
            live = true;
        }

        void stop() {
            live = false;
            guard.close();
            store.close();
        }

        Runnable body() {
            return () -> {
                RunContext run = RunContext.current().orElseThrow();
                model.record(run.nominalFireTime().toEpochMilli(), "START " + id + (run.isCatchUp() ? " catch-up" : ""));
                if (killed || (run.isCatchUp() && dieInCatchUp)) {
                    killed = true;
                    throw new Killed();
                }
            };
        }

        /** The scheduler thread: each grid point due by this node's clock, in order, through the recovery. */
        void fireDue() {
            try {
                while (!killed && next <= clockNow()) {
                    long fireTime = next;
                    next = EVERY_SECOND.next(Instant.ofEpochMilli(fireTime)).toEpochMilli();
                    Admission admission = missed.admit(model.job, model.recovery, Instant.ofEpochMilli(fireTime), body());
                    RunOutcome outcome;
                    if (!admission.granted()) {
                        outcome = admission.refusal();
                    } else {
                        try (FiringPermit permit = admission.permit()) {
                            body().run();
                            outcome = permit.finish(null);
                        }
                    }
                    model.trace.add(id + " fired T=" + fireTime + ": " + outcome);
                    // STORE_ERROR and BUSY settle nothing: their fire time is found by a later call
                    if (outcome == RunOutcome.RAN || outcome == RunOutcome.ALREADY_RAN) {
                        model.settled(fireTime, id + " regular firing " + outcome);
                    }
                }
            } catch (Killed e) {
                model.trace.add(id + " killed");
            }
        }

        /** The background pass of the same node, on its own thread: it settles nothing it can be sure of. */
        void backgroundPass() {
            try {
                missed.recover(model.job, model.recovery, body());
                model.trace.add(id + " background pass");
            } catch (Killed e) {
                model.trace.add(id + " killed in a background pass");
            }
        }
    }
}
