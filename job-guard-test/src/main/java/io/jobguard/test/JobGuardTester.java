package io.jobguard.test;

import io.jobguard.FiringBody;
import io.jobguard.FiringObserver;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunHistory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fires guarded jobs through a real {@link JobGuard} engine on a {@link SimulatedLeaseStore}, so that what a test sees
 * is what a scheduler firing the job would get. Each firing is the engine's own {@link JobGuard#fire} (admission, run,
 * finish and outcome), and every outcome the engine reports is recorded. Close it after the test when it made
 * the engine ({@link #create()}); the extension {@link JobGuardExtension} does. Thread-safe.
 */
public final class JobGuardTester implements AutoCloseable {

    /** Where the clock of {@link #create()} starts. */
    public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    /** This engine's node id in {@link #create()}. */
    public static final String NODE_ID = "this-node";

    /** How long {@link #loseLease} waits for the engine beyond the lease's remaining time. */
    private static final Duration LOSS_NOTICE_MARGIN = Duration.ofSeconds(5);

    private final JobGuard guard;
    private final SimulatedLeaseStore store;
    private final boolean ownsGuard;
    private final FiringRecord firings = new FiringRecord();

    private JobGuardTester(JobGuard guard, SimulatedLeaseStore store, boolean ownsGuard) {
        this.guard = guard;
        this.store = store;
        this.ownsGuard = ownsGuard;
        guard.addListener(firings);
    }

    /**
     * A tester with its own engine: namespace {@code test}, node {@value #NODE_ID}, on a {@link MutableClock}
     * standing at {@link #START}, and the engine's other settings at their defaults.
     *
     * @return the tester; close it after the test
     */
    public static JobGuardTester create() {
        return create(JobGuardConfig.builder().namespace("test").node(NodeConfig.builder().nodeId(NODE_ID).build())
                .build());
    }

    /**
     * A tester with its own engine made with {@code config}, except its clock: a {@link MutableClock} standing at
     * {@link #START}, shared by the engine and the store.
     *
     * @param config the engine's settings (namespace, node, skew tolerance, store-failure policy, ...)
     * @return the tester; close it after the test
     * @throws NullPointerException if {@code config} is null
     */
    public static JobGuardTester create(JobGuardConfig config) {
        MutableClock clock = MutableClock.at(START);
        JobGuardConfig withClock = config.toBuilder().clock(clock).build();
        SimulatedLeaseStore store = SimulatedLeaseStore.create(withClock.namespace(), clock);
        return new JobGuardTester(JobGuard.create(store, withClock), store, true);
    }

    /**
     * A tester for an engine made elsewhere (a Spring context's) on a {@link SimulatedLeaseStore}; closing the
     * tester leaves the engine open.
     *
     * @param guard the engine
     * @return the tester
     * @throws IllegalArgumentException if the engine's store is not a {@link SimulatedLeaseStore}
     */
    public static JobGuardTester of(JobGuard guard) {
        if (!(guard.store() instanceof SimulatedLeaseStore store)) {
            throw new IllegalArgumentException("the engine's store is " + guard.store()
                    + ", not a SimulatedLeaseStore: make the engine on SimulatedLeaseStore.create(namespace, clock)");
        }
        return new JobGuardTester(guard, store, false);
    }

    /**
     * The engine under test.
     *
     * @return the engine
     */
    public JobGuard guard() {
        return guard;
    }

    /**
     * The store, for the scenarios (another node, an outage, a lost history).
     *
     * @return the store
     */
    public SimulatedLeaseStore store() {
        return store;
    }

    /**
     * The time of the store (and of the engine, when this tester made it).
     *
     * @return the clock
     */
    public MutableClock clock() {
        return store.clock();
    }

    /**
     * Another node of the cluster; see {@link SimulatedLeaseStore#anotherNode}.
     *
     * @param nodeId the other node's id
     * @return the node
     */
    public AnotherNode anotherNode(String nodeId) {
        return store.anotherNode(nodeId);
    }

    /**
     * Fires {@code job} for {@code nominalFireTime} as a scheduler would: one {@link JobGuard#fire} with the job's
     * options, {@code body} as its work, on the calling thread. What the body throws is the firing's failure
     * ({@link RunOutcome#FAILED}), not rethrown.
     *
     * @param job             the job's options (its recovery included, when it has one)
     * @param nominalFireTime the fire time the schedule designated
     * @param body            the job's work
     * @return how the firing ended on this node
     * @throws NullPointerException if an argument is null
     */
    public RunOutcome fire(JobOptions job, Instant nominalFireTime, Runnable body) {
        Objects.requireNonNull(body, "body");
        AtomicReference<RunOutcome> ended = new AtomicReference<>();
        FiringObserver observer = (outcome, failure) -> ended.set(outcome);
        try {
            guard.fire(job, nominalFireTime, FiringBody.of(() -> {
                body.run();
                return null;
            }), observer);
        } catch (RuntimeException | Error e) {
            if (ended.get() == null) {
                throw e;
            }
        } catch (Throwable e) {
            if (ended.get() == null) {
                throw new IllegalStateException("the firing of job '" + job.name() + "' T=" + nominalFireTime
                        + " failed before it was decided", e);
            }
        }
        return ended.get();
    }

    /**
     * Every outcome the engine reported on this node for {@code job}, oldest first (refusals included:
     * {@code ALREADY_RAN}, {@code BUSY}, {@code STORE_ERROR}, ...).
     *
     * @param job the job name
     * @return the events
     */
    public List<JobEvent> events(String job) {
        return firings.events(job);
    }

    /**
     * The last outcome the engine reported on this node for {@code job} and {@code nominalFireTime}.
     *
     * @param job             the job name
     * @param nominalFireTime the fire time
     * @return the outcome, or empty when no firing of it was decided here
     */
    public Optional<RunOutcome> outcome(String job, Instant nominalFireTime) {
        return firings.last(job, nominalFireTime).map(JobEvent::outcome);
    }

    /**
     * The store's history of {@code job}; see {@link SimulatedLeaseStore#history(String)}.
     *
     * @param job the job name
     * @return the entries, newest first
     */
    public List<RunHistory.FireEntry> history(String job) {
        return store.history(job);
    }

    /**
     * Takes away the run lease of {@code job} ({@link SimulatedLeaseStore#loseLease}) and returns once the engine
     * has flagged the run's lease lost: from then on the run's {@code RunContext#isLeaseLost()} is {@code true} and
     * {@code RunContext#checkLease()} throws {@code LeaseLostException}. The engine notices at its next renewal of
     * the lease (a third of the lease after the last one) or at the lease's local deadline when the job renews
     * nothing, so this call takes up to that long: give the job a short lease in such a test. Callable from the
     * job's own body (it then blocks the body until the engine knows) or from another thread.
     *
     * @param job the job name
     * @throws IllegalStateException if no run holds the job's lease, or the engine did not notice within the
     *                               lease's remaining time and five seconds
     */
    public void loseLease(String job) {
        LeaseRecord held = store.currentRunLease(store.jobId(job)).orElseThrow(() -> new IllegalStateException(
                "no run of job '" + job + "' holds its lease: nothing to lose"));
        FiringRecord.LossWait wait = firings.expectLoss(job);
        if (!store.loseLease(job)) {
            throw new IllegalStateException("the run of job '" + job + "' ended before its lease could be lost");
        }
        Duration bound = (held.expiresIn() == null ? Duration.ZERO : held.expiresIn()).plus(LOSS_NOTICE_MARGIN);
        if (!wait.await(bound)) {
            throw new IllegalStateException("the engine did not notice the lost lease of job '" + job + "' within "
                    + bound);
        }
    }

    /** Closes the engine if this tester made it (the store holds nothing to close). */
    @Override
    public void close() {
        if (ownsGuard) {
            guard.close();
        }
    }

    @Override
    public String toString() {
        return "JobGuardTester[" + store + "]";
    }
}
