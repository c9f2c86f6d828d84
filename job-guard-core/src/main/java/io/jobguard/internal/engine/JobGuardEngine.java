package io.jobguard.internal.engine;

import io.jobguard.Fired;
import io.jobguard.FiringBody;
import io.jobguard.FiringEnd;
import io.jobguard.FiringObserver;
import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.LastFiring;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import io.jobguard.TakeOverExecutor;
import io.jobguard.StoreFailurePolicy;
import io.jobguard.internal.KeepAlive;
import io.jobguard.internal.LostReplies;
import io.jobguard.internal.TimeBounds;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RetryByHand;
import io.jobguard.store.OperatorControl;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.store.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link JobGuard} of {@link JobGuard#create}: one instance per node, thread-safe. Owns the firings
 * ({@link #fire}), the permits it grants and the node's one {@link MissedFireTimeRecovery}.
 */
public final class JobGuardEngine implements JobGuard, RecoveryEngine {

    private static final Logger log = LoggerFactory.getLogger(JobGuardEngine.class);

    private final LeaseStore store;
    private final JobGuardConfig config;
    private final List<JobGuardListener> listeners = new CopyOnWriteArrayList<>();
    private final KeepAlive keepAlive = new KeepAlive();
    private final StoreCapabilities capabilities;
    private final RunLifecycle runs;
    private final FiringWarnings warnings;
    private final ReleaseWaits releaseWaits;
    private final LostReplies lostReplies;
    private final MissedFireTimeRecovery missed;
    private final OperatorActions operators;
    /** Who asks for each declared job's regular fire times. */
    private final SpreadFirings spread;
    /** Written only by {@link #ended}. */
    private final ConcurrentMap<String, LastFiring> lastFirings = new ConcurrentHashMap<>();

    public JobGuardEngine(LeaseStore store, JobGuardConfig config) {
        this.store = Objects.requireNonNull(store, "store");
        this.capabilities = StoreCapabilities.of(store);
        this.config = Objects.requireNonNull(config, "config");
        this.warnings = new FiringWarnings(store, config);
        this.releaseWaits = new ReleaseWaits(store, config);
        this.lostReplies = new LostReplies(store, keepAlive);
        this.runs = new RunLifecycle(capabilities, config, listeners, keepAlive);
        this.missed = new MissedFireTimeRecovery(this);
        this.operators = new OperatorActions(store, config);
        this.spread = new SpreadFirings(config, capabilities, this::fireTakenOver);
        listeners.add(spread::ran);
    }

    @Override
    public JobGuard addListener(JobGuardListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    @Override
    public JobGuardConfig config() {
        return config;
    }

    @Override
    public boolean recoverMissedFireTimes(JobOptions job, RecoveryOptions recovery, Runnable body) {
        return missed.recover(job, recovery, body);
    }

    @Override
    public Optional<Instant> recoveryPendingUntil(JobOptions job, RecoveryOptions recovery) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(recovery, "recovery");
        return missed.pendingUntil(job, recovery);
    }

    @Override
    public boolean runDueRetry(JobOptions job, Runnable body) {
        return missed.runDueRetry(job, body);
    }

    @Override
    public Optional<Instant> retryDueAt(JobOptions job) {
        return missed.retryDueAt(job);
    }

    /**
     * Returns this engine's recovery of lost fire times: one per engine, so that on one node a job's
     * firings, its start-up pass and its background pass recover it one at a time.
     *
     * @return the recovery of missed fire times and dead runs
     */
    public MissedFireTimeRecovery missedFireTimeRecovery() {
        return missed;
    }

    @Override
    public LeaseStore store() {
        return store;
    }

    @Override
    public StoreCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public EngineAdmission admit(JobOptions job, Instant nominalFireTime) {
        return admit(job, nominalFireTime, AcquireMode.REGULAR);
    }

    /**
     * {@link #admit(JobOptions, Instant)} for one kind of attempt, with its recovery checks (used by {@link MissedFireTimeRecovery}).
     * Once {@link #handOverLeases} has begun, the firing is refused {@code STORE_ERROR} without asking the store: the
     * node is stopping, and a lease taken now could outlive the store's connections; another node runs the fire time.
     */
    @Override
    public EngineAdmission admit(JobOptions job, Instant nominalFireTime, AcquireMode mode) {
        Objects.requireNonNull(job, "job");
        TimeBounds.nominalFireTime(nominalFireTime, "nominal fire time of job '" + job.name() + "'");
        long started = System.nanoTime();
        LeaseHandOver handOver = runs.handOver();
        if (!handOver.enter()) {
            return shuttingDown(job, nominalFireTime, started);
        }
        try {
            return admitOpen(job, nominalFireTime, mode, started);
        } finally {
            handOver.leave();
        }
    }

    /** A grant that superseded a failed fire time's pending attempt: the store recorded it; this node reports it. */
    private void supersededRetry(JobOptions job, Instant nominalFireTime, AcquireResult granted) {
        RunRecord record = granted.record();
        if (record == null || record.retry() == null) {
            return;
        }
        Instant pending = record.retry().fireTime();
        log.warn("job-guard: job '{}' T={} node={} RETRY_SUPERSEDED: its next attempt was still pending when fire time"
                + " {} started here; the newer fire time runs instead", job.name(), pending, config.nodeId(),
                nominalFireTime);
        runs.announce(job, pending, RunOutcome.RETRY_SUPERSEDED, null, 0, null);
    }

    private EngineAdmission shuttingDown(JobOptions job, Instant nominalFireTime, long started) {
        log.info("job-guard: job '{}' T={} node={} not started: the node is shutting down (its leases were handed"
                + " over); another node runs it", job.name(), nominalFireTime, config.nodeId());
        return refuse(job, nominalFireTime, RunOutcome.STORE_ERROR, null, started, new IllegalStateException(
                "job-guard: node " + config.nodeId() + " is shutting down and takes no new lease"));
    }

    private EngineAdmission admitOpen(JobOptions job, Instant nominalFireTime, AcquireMode mode, long started) {
        JobId id = new JobId(config.namespace(), job.name());
        RunLeaseRequest request = new RunLeaseRequest(id, nominalFireTime, UUID.randomUUID().toString(),
                config.nodeId(), job.lease(), config.skewTolerance().plus(job.waitFor()),
                HistoryLimits.size(config, job), config.skewTolerance(), HistoryLimits.retention(config, job));
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
                AcquireResult result = capabilities.acquireRun(request, mode);
                acquireSent = false;
                warnings.blockedByForeignValue(job, request, result);
                switch (result.status()) {
                    case ACQUIRED:
                        supersededRetry(job, nominalFireTime, result);
                        return EngineAdmission.granted(runs.grant(job, request, result.fencingToken(), true, started, sent, mode));
                    case CATCH_UP, RETRY, ABANDONED, MISSED, SUPERSEDED, NOT_DUE:
                        return EngineAdmission.recovery(result);
                    case ALREADY_RAN:
                        return refuse(job, nominalFireTime, RunOutcome.ALREADY_RAN, result.holder(), started, null);
                    case HISTORY_LOST:
                        warnings.historyLost(job, nominalFireTime, result.holder(), result.retryAfter());
                        // with the fire times refused with it that this node reports (MissedFireTimeRecovery), if any
                        return refuse(job, nominalFireTime, RunOutcome.HISTORY_LOST, result.holder(), started, null)
                                .withRecovery(result.record() != null ? result : null);
                    case PAUSED:
                        if (mode.kind() == AcquireMode.Kind.RETRY_FAILED) {
                            // a pending attempt waits while the job is paused: its fire time is not reported PAUSED
                            return EngineAdmission.recovery(result);
                        }
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
                if (runs.handOver().closed()) {
                    return shuttingDown(job, nominalFireTime, started);
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

    @Override
    public <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body, FiringObserver observer)
            throws Throwable {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(observer, "observer");
        return fire(job, nominalFireTime, body, observer, true);
    }

    /**
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)}, leaving the fire time to its assigned node when
     * {@code spreadable} and the spread does so.
     */
    private <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body, FiringObserver observer,
                              boolean spreadable) throws Throwable {
        TimeBounds.nominalFireTime(nominalFireTime, "nominal fire time of job '" + job.name() + "'");
        if (spreadable && spread.leftToAssignedNode(job, nominalFireTime, body.recoveryRun())) {
            runs.refused(job, nominalFireTime, RunOutcome.ASSIGNED_ELSEWHERE, null, 0, null);
            ended(job, nominalFireTime, RunOutcome.ASSIGNED_ELSEWHERE, null, observer);
            return Fired.refused(RunOutcome.ASSIGNED_ELSEWHERE);
        }
        EngineAdmission admission = job.recovery() == null ? admit(job, nominalFireTime)
                : missed.admit(job, job.recovery(), nominalFireTime, body.recoveryRun());
        spread.answered(job, nominalFireTime, admission);
        if (!admission.granted()) {
            ended(job, nominalFireTime, admission.refusal(), null, observer);
            return Fired.refused(admission.refusal());
        }
        FiringEnd end = new EngineFiringEnd(this, job, nominalFireTime, admission.permit(), observer);
        try {
            observer.started(end.context());
            return Fired.started(body.start(end));
        } catch (Throwable e) {
            end.end(e);
            throw e;
        }
    }

    /** A fire time this node takes over from its assigned node: a firing that asks the store. */
    private void fireTakenOver(JobOptions job, Instant nominalFireTime, Runnable body) {
        try {
            fire(job, nominalFireTime, FiringBody.of(() -> {
                body.run();
                return null;
            }), FiringObserver.NONE, false);
        } catch (Throwable e) {
            log.warn("job-guard: job '{}' T={} node={}: the run taken over threw: {}", job.name(), nominalFireTime,
                    config.nodeId(), e.toString());
        }
    }

    @Override
    public Instant dueFrom(JobOptions job) {
        return spread.dueFrom(job);
    }

    @Override
    public void decided(JobOptions job, Instant nominalFireTime, boolean settlesEarlier) {
        spread.decided(job, nominalFireTime, settlesEarlier);
    }

    @Override
    public Set<String> declareScheduledJobs(Collection<JobOptions> jobs, TakeOverExecutor takeOvers) {
        Objects.requireNonNull(jobs, "jobs");
        Objects.requireNonNull(takeOvers, "takeOvers");
        return spread.declare(jobs, takeOvers);
    }

    @Override
    public Optional<String> assignedNode(String job) {
        return spread.assignedNode(job);
    }

    @Override
    public <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body) throws Throwable {
        return fire(job, nominalFireTime, body, FiringObserver.NONE);
    }

    @Override
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

    @Override
    public Optional<LastFiring> lastFiring(String job) {
        return Optional.ofNullable(lastFirings.get(job));
    }

    /** Records how a firing of {@link #fire} ended: the one place its outcome is recorded. */
    void ended(JobOptions job, Instant nominalFireTime, RunOutcome outcome, Throwable failure, FiringObserver observer) {
        lastFirings.put(job.name(), new LastFiring(nominalFireTime, outcome));
        observer.ended(outcome, failure);
    }

    @Override
    public boolean pause(String job, String by) {
        return operators.pause(job, by);
    }

    @Override
    public boolean resume(String job) {
        return operators.resume(job);
    }

    @Override
    public Optional<OperatorControl.Pause> paused(String job) {
        return operators.paused(job);
    }

    @Override
    public int activeLeases() {
        return runs.activeLeases();
    }

    @Override
    public Duration measureClockSkew() {
        Instant localBefore = config.clock().instant();
        long before = System.nanoTime();
        Instant server = store.serverTime();
        long roundTrip = System.nanoTime() - before;
        Instant localMid = localBefore.plusNanos(roundTrip / 2);
        return Duration.between(server, localMid);
    }

    @Override
    public Optional<LeaseRecord> currentLease(String job) {
        return operators.currentLease(job);
    }

    @Override
    public List<LeaseRecord> recentFires(String job) {
        return operators.recentFires(job);
    }

    @Override
    public RunHistory.Page history(String job, RunHistory.Query query, String cursor, int pageSize) {
        return operators.history(job, query, cursor, pageSize);
    }

    @Override
    public void exportHistory(String job, RunHistory.Query query, Predicate<RunHistory.FireEntry> sink) {
        operators.exportHistory(job, query, sink);
    }

    @Override
    public boolean forceRelease(String job) {
        return operators.forceRelease(job);
    }

    @Override
    public RetryByHand retryByHand(String job, Instant fireTime, String by) {
        return operators.retryByHand(job, fireTime, by);
    }

    @Override
    public int handOverLeases(Duration wait) throws InterruptedException {
        spread.leaving(true); // the farewell publication below tells the fleet: its jobs go to the others at once
        try {
            return runs.handOver().awaitThenGiveUp(wait, runs::giveUp).size();
        } finally {
            capabilities.admissionClosed();
        }
    }

    @Override
    public void reopenAdmission() {
        runs.handOver().reopen();
        spread.leaving(false);
    }

    @Override
    public long releaseFailures() {
        return runs.releaseFailures();
    }

    @Override
    public void close() {
        spread.close();
        try {
            runs.flushReleases(Duration.ofSeconds(5));
            capabilities.admissionClosed();
        } finally {
            keepAlive.close();
        }
    }

    private EngineAdmission storeFailure(JobOptions job, RunLeaseRequest request, long started, RuntimeException e) {
        boolean runUnguarded = config.storeFailurePolicy() == StoreFailurePolicy.RUN;
        warnings.storeFailed(job, request, runUnguarded, e);
        if (runUnguarded) {
            return EngineAdmission.granted(runs.grant(job, request, -1, false, started, System.nanoTime(),
                    AcquireMode.REGULAR));
        }
        return refuse(job, request.nominalFireTime(), RunOutcome.STORE_ERROR, null, started, e);
    }

    /** Reports an outcome of the recovery of missed fire times and dead runs ({@link MissedFireTimeRecovery}). */
    @Override
    public void report(JobOptions job, Instant nominalFireTime, RunOutcome outcome, boolean recorded) {
        if (recorded) {
            runs.announce(job, nominalFireTime, outcome, null, 0, null);
            return;
        }
        if (outcome != RunOutcome.HISTORY_LOST) { // recorded by refused(...)
            runs.recordOutcome(job, nominalFireTime, outcome);
        }
        runs.refused(job, nominalFireTime, outcome, null, 0, null);
    }

    private EngineAdmission refuse(JobOptions job, Instant nominalFireTime, RunOutcome outcome, LeaseRecord holder, long started,
                             Throwable cause) {
        runs.refused(job, nominalFireTime, outcome, holder, System.nanoTime() - started, cause);
        return EngineAdmission.refused(outcome);
    }
}
