package io.jobguard;

import io.jobguard.internal.KeepAlive;
import io.jobguard.internal.TimeBounds;
import io.jobguard.internal.LostReplies;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.ForceRelease;
import io.jobguard.store.JobPauses;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunLeaseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine that guards scheduled jobs across a cluster. For a job J and a nominal fire time T:
 * <ol>
 *   <li>at most one node in the cluster starts J's body for T, whatever the clock skew between
 *       nodes (below the configured skew tolerance);</li>
 *   <li>while a run of J holds the run lease, no other run of J starts on any node;</li>
 *   <li>a node that dies mid-run blocks J for at most the lease; T is not run again (unless the job's
 *       delivery is {@link Delivery#AT_LEAST_ONCE}, see {@link MissedFireTimes});</li>
 *   <li>a node only renews or releases leases it holds; a lost lease is reported, not deleted;</li>
 *   <li>a run longer than its lease keeps it renewed while the node lives, and is told when
 *       renewal fails ({@link RunContext#isLeaseLost()}, a WARN log, listeners);</li>
 *   <li>when the store cannot be reached the firing is skipped with {@link RunOutcome#STORE_ERROR}
 *       (unless {@link StoreFailurePolicy#RUN}); no exception reaches the caller of
 *       {@link #admit(JobOptions, Instant)}.</li>
 *   <li>when the store lost J's history (Redis restarted without persistence, was flushed, failed
 *       over to a replica that missed writes, evicted keys), a fire time that may have run before
 *       the loss is skipped with {@link RunOutcome#HISTORY_LOST}, never run (as far as the store
 *       can tell; see {@code RedisLeaseStore}).</li>
 * </ol>
 * One firing has one owner: {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)} admits its
 * fire time (plainly, or after recovering what the job's {@link JobOptions#recovery()} asks for), runs
 * the body, finishes the permit and records the outcome; the Spring advice, the Quartz listener and
 * {@link #run(JobOptions, Instant, Runnable)} all call it. {@link #admit(JobOptions, Instant)} is the
 * lower-level step for callers that finish the permit themselves. Thread-safe; one instance per node.
 */
public final class JobGuard implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JobGuard.class);

    private final LeaseStore store;
    private final JobGuardConfig config;
    private final List<JobGuardListener> listeners = new CopyOnWriteArrayList<>();
    private final KeepAlive keepAlive = new KeepAlive();
    private final RunLifecycle runs;
    private final FiringWarnings warnings;
    private final ReleaseWaits releaseWaits;
    private final LostReplies lostReplies;
    private final MissedFireTimes missed;
    /** Written only by {@link #ended}. */
    private final ConcurrentMap<String, LastFiring> lastFirings = new ConcurrentHashMap<>();

    private JobGuard(LeaseStore store, JobGuardConfig config) {
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.warnings = new FiringWarnings(store, config);
        this.releaseWaits = new ReleaseWaits(store, config);
        this.lostReplies = new LostReplies(store, keepAlive);
        this.runs = new RunLifecycle(store, config, listeners, keepAlive);
        this.missed = new MissedFireTimes(this);
    }

    /**
     * Creates an engine.
     *
     * @param store  where leases live (for example {@code RedisLeaseStore.create(connectionFactory)})
     * @param config node-wide settings
     * @return the engine; close it on shutdown (the store is not closed with it)
     */
    public static JobGuard create(LeaseStore store, JobGuardConfig config) {
        return new JobGuard(store, config);
    }

    /**
     * Adds a listener for outcomes and lost leases.
     *
     * @param listener the listener
     * @return this engine
     */
    public JobGuard addListener(JobGuardListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Returns the node-wide settings.
     *
     * @return the configuration
     */
    public JobGuardConfig config() {
        return config;
    }

    /**
     * Returns this engine's recovery of lost fire times: one per engine, so that on one node a job's
     * firings, its start-up pass and its background pass recover it one at a time.
     *
     * @return the recovery of missed fire times and dead runs
     */
    public MissedFireTimes missedFireTimes() {
        return missed;
    }

    /**
     * Returns the lease store.
     *
     * @return the store
     */
    public LeaseStore store() {
        return store;
    }

    /**
     * Decides whether this node runs the firing of {@code job} for {@code nominalFireTime}. When
     * another run holds the run lease, RETURN waits up to {@link JobOptions#busyGrace()} for its
     * release and is skipped as {@link RunOutcome#BUSY} if the lease stays held; WAIT blocks up to
     * {@link JobOptions#waitFor()}. Both are woken by release notifications and re-check the fire
     * time (already taken: {@link RunOutcome#ALREADY_RAN}) before they run. A granted permit must
     * be finished (in a {@code finally}). The job's {@link JobOptions#recovery()} is not applied here:
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)} applies it.
     *
     * @param job             how the job is guarded
     * @param nominalFireTime the fire time the schedule designated (not the node's "now")
     * @return the permit, or why the firing is skipped; never throws for store failures
     * @throws IllegalArgumentException if {@code nominalFireTime} is null or outside 1970 to 9999
     * @throws NullPointerException     if {@code job} is null
     */
    public Admission admit(JobOptions job, Instant nominalFireTime) {
        return admit(job, nominalFireTime, AcquireMode.REGULAR);
    }

    /** {@link #admit(JobOptions, Instant)} for one kind of attempt, with its recovery checks (used by {@link MissedFireTimes}). */
    Admission admit(JobOptions job, Instant nominalFireTime, AcquireMode mode) {
        Objects.requireNonNull(job, "job");
        TimeBounds.fireTime(nominalFireTime, "nominal fire time of job '" + job.name() + "'");
        long started = System.nanoTime();
        JobId id = new JobId(config.namespace(), job.name());
        RunLeaseRequest request = new RunLeaseRequest(id, nominalFireTime, UUID.randomUUID().toString(),
                config.nodeId(), job.lease(), config.skewTolerance().plus(job.waitFor()), config.historySize(),
                config.skewTolerance());
        boolean waits = job.type() == GuardType.WAIT;
        // WAIT: bounded by waitFor, on a busy lease or a cool-down; RETURN: a grace on a busy lease only
        RunOutcome gaveUp = waits ? RunOutcome.WAIT_TIMEOUT : RunOutcome.BUSY;
        Duration bound = waits ? job.waitFor() : job.busyGrace();
        ReleaseWatch watch = null;
        long sent = 0;
        boolean acquireSent = false;
        try {
            // a lease that an earlier acquire's lost reply may have left goes first: a lost reply costs one firing, never the lease's TTL
            lostReplies.reconcile();
            if (waits && !bound.isZero()) {
                watch = releaseWaits.watch(id);
            }
            long deadline = started + bound.toNanos();
            while (true) {
                sent = System.nanoTime();
                acquireSent = true;
                AcquireResult result = store.acquireRun(request, mode);
                acquireSent = false;
                warnings.blockedByForeignValue(job, request, result);
                switch (result.status()) {
                    case ACQUIRED:
                        return Admission.granted(runs.grant(job, request, result.fencingToken(), true, started, sent, mode));
                    case CATCH_UP, RETRY, ABANDONED, MISSED, SUPERSEDED:
                        return Admission.recovery(result);
                    case ALREADY_RAN:
                        return refuse(job, nominalFireTime, RunOutcome.ALREADY_RAN, result.holder(), started, null);
                    case HISTORY_LOST:
                        warnings.historyLost(job, nominalFireTime, result.holder(), result.retryAfter());
                        // with the fire times refused with it that this node reports (MissedFireTimes), if any
                        return refuse(job, nominalFireTime, RunOutcome.HISTORY_LOST, result.holder(), started, null)
                                .withRecovery(result.record() != null ? result : null);
                    case PAUSED:
                        return refuse(job, nominalFireTime, RunOutcome.PAUSED, null, started, null);
                    default:
                        break;
                }
                long remaining = deadline - System.nanoTime();
                if (bound.isZero() || (!waits && result.status() != AcquireResult.Status.BUSY)) {
                    return refuse(job, nominalFireTime, RunOutcome.BUSY, result.holder(), started, null);
                }
                if (remaining <= 0) {
                    return refuse(job, nominalFireTime, gaveUp, result.holder(), started, null);
                }
                if (watch == null) {
                    // RETURN watches only once it meets a busy lease, then tries again at once, so that
                    // a release between that attempt and the watch is not missed
                    watch = releaseWaits.watchForGrace(job, id);
                    if (watch == null) {
                        return refuse(job, nominalFireTime, RunOutcome.BUSY, result.holder(), started, null);
                    }
                    continue;
                }
                watch.await(releaseWaits.pause(remaining, result.retryAfter()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return refuse(job, nominalFireTime, gaveUp, null, started, e);
        } catch (RuntimeException e) {
            if (acquireSent) {
                lostReplies.remember(request, sent);
            }
            return storeFailure(job, request, started, e);
        } finally {
            if (watch != null) {
                watch.close();
            }
        }
    }

    /**
     * Runs one firing of {@code job} for {@code nominalFireTime}, whole: admits the fire time (after the
     * recovery runs the job's {@link JobOptions#recovery() misfire policy and delivery} ask for, each a run
     * of {@code body}'s recovery work, when the job has a recovery), starts {@code body} under the permit
     * if admitted, finishes the permit when the body ends (for a body that ends later, whenever it calls
     * its {@link FiringEnd}), and records the outcome once: the job's {@link #lastFiring(String) last
     * firing} and {@code observer}. Never throws for store failures (they are the refusal
     * {@link RunOutcome#STORE_ERROR}, or an unguarded run under {@link StoreFailurePolicy#RUN}); what the
     * body throws while it starts is rethrown after the firing ended with it.
     *
     * @param job             how the job is guarded, and how it recovers lost fire times
     * @param nominalFireTime the fire time the schedule designated (not the node's "now")
     * @param body            the job's work
     * @param observer        hears when the run starts and, once, how the firing ended
     * @param <R>             what the body returns
     * @return the body's value, or why the fire time was not run here
     * @throws IllegalArgumentException if {@code nominalFireTime} is null or outside 1970 to 9999
     * @throws NullPointerException     if an argument is null
     * @throws Throwable                what the body threw while it started
     */
    public <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body, FiringObserver observer)
            throws Throwable {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(observer, "observer");
        Admission admission = job.recovery() == null ? admit(job, nominalFireTime)
                : missed.admit(job, job.recovery(), nominalFireTime, body.recoveryRun());
        if (!admission.granted()) {
            ended(job, nominalFireTime, admission.refusal(), null, observer);
            return Fired.refused(admission.refusal());
        }
        FiringEnd end = new FiringEnd(this, job, nominalFireTime, admission.permit(), observer);
        try {
            observer.started(end.context());
            return Fired.started(body.start(end));
        } catch (Throwable e) {
            end.end(e);
            throw e;
        }
    }

    /**
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)} with no observer.
     *
     * @param job             how the job is guarded, and how it recovers lost fire times
     * @param nominalFireTime the fire time the schedule designated
     * @param body            the job's work
     * @param <R>             what the body returns
     * @return the body's value, or why the fire time was not run here
     * @throws Throwable what the body threw while it started
     */
    public <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body) throws Throwable {
        return fire(job, nominalFireTime, body, FiringObserver.NONE);
    }

    /**
     * Runs {@code body} if this node wins the firing (a synchronous
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver) fire}); the lease is released when the body
     * ends. An exception thrown by the body is rethrown after the lease is released and
     * {@link RunOutcome#FAILED} is reported.
     *
     * @param job             how the job is guarded
     * @param nominalFireTime the fire time the schedule designated
     * @param body            the job's work
     * @return RAN, or why the body did not run
     * @throws IllegalArgumentException if {@code nominalFireTime} is null
     */
    public RunOutcome run(JobOptions job, Instant nominalFireTime, Runnable body) {
        Objects.requireNonNull(body, "body");
        AtomicReference<RunOutcome> outcome = new AtomicReference<>();
        try {
            fire(job, nominalFireTime, FiringBody.of(() -> {
                body.run();
                return null;
            }), (ended, failure) -> outcome.set(ended));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            // a Runnable throws no checked exception
            throw new UndeclaredThrowableException(e);
        }
        return outcome.get();
    }

    /**
     * The last firing of a job that this engine decided through {@link #fire} or {@link #run}.
     *
     * @param job the job name
     * @return its fire time and outcome, or empty when none was decided on this node
     */
    public Optional<LastFiring> lastFiring(String job) {
        return Optional.ofNullable(lastFirings.get(job));
    }

    /** Records how a firing of {@link #fire} ended: the one place its outcome is recorded. */
    void ended(JobOptions job, Instant fireTime, RunOutcome outcome, Throwable failure, FiringObserver observer) {
        lastFirings.put(job.name(), new LastFiring(fireTime, outcome));
        observer.ended(outcome, failure);
    }

    /**
     * Pauses a job cluster-wide: until {@link #resume}, every node's firing of it is skipped with
     * {@link RunOutcome#PAUSED} (the flag is read by the same store call that takes the lease). A
     * run in progress is not stopped.
     *
     * @param job the job name
     * @param by  who asked (recorded with the flag; null for unknown)
     * @return true if the job was running and is now paused, false if it was paused already
     * @throws UnsupportedOperationException naming the store when it cannot pause jobs
     */
    public boolean pause(String job, String by) {
        return pauses().pause(new JobId(config.namespace(), job), config.nodeId(), by == null ? "" : by);
    }

    /**
     * Resumes a paused job cluster-wide: its next fire times run as usual.
     *
     * @param job the job name
     * @return true if the job was paused
     * @throws UnsupportedOperationException naming the store when it cannot pause jobs
     */
    public boolean resume(String job) {
        return pauses().resume(new JobId(config.namespace(), job));
    }

    /**
     * The pause flag of a job, cluster-wide.
     *
     * @param job the job name
     * @return the flag, or empty when the job runs (always empty on a store that cannot pause jobs)
     */
    public Optional<JobPauses.Pause> paused(String job) {
        return store.capability(JobPauses.class).flatMap(p -> p.paused(new JobId(config.namespace(), job)));
    }

    private JobPauses pauses() {
        return required(JobPauses.class, "cannot pause jobs");
    }

    /** The store's capability, or an exception naming the store and what it cannot do (the Redis store can all). */
    private <T> T required(Class<T> capability, String cannot) {
        return store.capability(capability).orElseThrow(() -> new UnsupportedOperationException(
                "job-guard: not supported by the lease store " + store + ": it " + cannot + " (the Redis store can)"));
    }

    /**
     * The number of run leases this node holds now.
     *
     * @return live permits on this node
     */
    public int activeLeases() {
        return runs.activeLeases();
    }

    /**
     * This node's clock minus the store's clock, corrected by half the round trip.
     *
     * @return the skew (positive when this node is ahead)
     * @throws RuntimeException if the store cannot be reached
     */
    public Duration measureClockSkew() {
        Instant localBefore = config.clock().instant();
        long before = System.nanoTime();
        Instant server = store.serverTime();
        long roundTrip = System.nanoTime() - before;
        Instant localMid = localBefore.plusNanos(roundTrip / 2);
        return Duration.between(server, localMid);
    }

    /**
     * The live run lease of a job, cluster-wide.
     *
     * @param job the job name
     * @return the lease, or empty
     * @throws UnsupportedOperationException naming the store when it keeps no cluster-wide run history
     */
    public Optional<LeaseRecord> currentLease(String job) {
        return required(RunHistory.class, "keeps no cluster-wide run history")
                .currentRunLease(new JobId(config.namespace(), job));
    }

    /**
     * The job's most recent fire times and who took them, newest first.
     *
     * @param job the job name
     * @return up to {@link JobGuardConfig#historySize()} entries
     * @throws UnsupportedOperationException naming the store when it keeps no cluster-wide run history
     */
    public List<LeaseRecord> recentFires(String job) {
        return required(RunHistory.class, "keeps no cluster-wide run history")
                .recentFires(new JobId(config.namespace(), job), config.historySize());
    }

    /**
     * Deletes a job's run lease whoever holds it (operator action, logged at WARN).
     *
     * @param job the job name
     * @return {@code true} if a lease was deleted
     * @throws UnsupportedOperationException naming the store when it cannot release another node's lease
     */
    public boolean forceRelease(String job) {
        boolean deleted = required(ForceRelease.class, "cannot release another node's lease")
                .forceReleaseRun(new JobId(config.namespace(), job));
        log.warn("job-guard: job '{}' run lease force-released by node {} (deleted={})", job, config.nodeId(),
                deleted);
        return deleted;
    }

    /**
     * Graceful shutdown, before the store's connections close: waits up to {@code wait} for this node's running
     * guarded runs to finish (they release their leases as usual), then gives up the leases of the runs still
     * going. Each of those is told first (its {@link RunContext#isLeaseLost()} turns true, so
     * {@link RunContext#checkLease()} and lease-checked commits refuse; listeners hear of it; its thread is
     * interrupted when {@link JobGuardConfig#interruptOnLeaseLost()} is set), then its lease is released
     * (owner-checked), so another node can run the next fire time without waiting for the lease's TTL. The
     * fire-time markers stay: no fire time runs twice because of this.
     *
     * @param wait how long to wait for running runs first (zero: give up at once)
     * @return how many leases were given up
     * @throws InterruptedException if interrupted while waiting
     */
    public int handOverLeases(Duration wait) throws InterruptedException {
        return runs.handOver().awaitThenGiveUp(wait, runs::giveUp).size();
    }

    /**
     * How many lease releases failed on this node (each also a WARN; the lease then expires by its TTL).
     *
     * @return failed releases since the engine was created
     */
    public long releaseFailures() {
        return runs.releaseFailures();
    }

    /** Waits (up to five seconds) for the releases still in flight, then stops the keep-alive thread; the store stays open. */
    @Override
    public void close() {
        try {
            runs.flushReleases(Duration.ofSeconds(5));
        } finally {
            keepAlive.close();
        }
    }

    private Admission storeFailure(JobOptions job, RunLeaseRequest request, long started, RuntimeException e) {
        boolean runUnguarded = config.storeFailurePolicy() == StoreFailurePolicy.RUN;
        warnings.storeFailed(job, request, runUnguarded, e);
        if (runUnguarded) {
            return Admission.granted(runs.grant(job, request, -1, false, started, System.nanoTime(),
                    AcquireMode.REGULAR));
        }
        return refuse(job, request.nominalFireTime(), RunOutcome.STORE_ERROR, null, started, e);
    }

    /** Reports an outcome of the recovery of missed fire times and dead runs ({@link MissedFireTimes}). */
    void report(JobOptions job, Instant fireTime, RunOutcome outcome) {
        if (outcome != RunOutcome.HISTORY_LOST) { // recorded by refused(...)
            runs.recordOutcome(job, fireTime, outcome);
        }
        runs.refused(job, fireTime, outcome, null, 0, null);
    }

    private Admission refuse(JobOptions job, Instant fireTime, RunOutcome outcome, LeaseRecord holder, long started,
                             Throwable cause) {
        runs.refused(job, fireTime, outcome, holder, System.nanoTime() - started, cause);
        return Admission.refused(outcome);
    }
}
