package io.jobguard;

import io.jobguard.internal.KeepAlive;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.TimeBounds;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.internal.LeaseDeadline;
import io.jobguard.internal.LostReplies;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.FireOutcomes;
import io.jobguard.store.JobPauses;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunLeaseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

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
 * Adapters (Spring, Quartz) call {@link #admit(JobOptions, Instant)} and finish the permit; plain
 * Java can use {@link #run(JobOptions, Instant, Runnable)}. Thread-safe; one instance per node.
 */
public final class JobGuard implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JobGuard.class);

    private final LeaseStore store;
    private final JobGuardConfig config;
    private final List<JobGuardListener> listeners = new CopyOnWriteArrayList<>();
    private final KeepAlive keepAlive = new KeepAlive();
    private final AtomicInteger activeLeases = new AtomicInteger();
    private final HistoryLossLog historyLoss;
    /** Failures that repeat on every firing (store down, a foreign key) log once per job per minute, with a count. */
    private final RateLimitedLog repeatedWarnings;
    private final LostReplies lostReplies;
    private final LeaseHandOver handOver = new LeaseHandOver();
    private final RateLimitedLog listenerFailures;

    private JobGuard(LeaseStore store, JobGuardConfig config) {
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.historyLoss = new HistoryLossLog(config.namespace(), config.nodeId());
        this.repeatedWarnings = new RateLimitedLog(config.clock(), Duration.ofMinutes(1));
        this.lostReplies = new LostReplies(store, keepAlive);
        this.listenerFailures = new RateLimitedLog(config.clock(), Duration.ofMinutes(1));
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
     * be finished (in a {@code finally}).
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

    /** {@link #admit(JobOptions, Instant)} for one kind of attempt, with its recovery checks (issue 15, {@link MissedFireTimes}). */
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
            // a lease that an earlier acquire's lost reply may have left goes first (issue 14)
            lostReplies.reconcile();
            if (waits && !bound.isZero()) {
                watch = store.watchRunReleases(id);
            }
            long deadline = started + bound.toNanos();
            while (true) {
                sent = System.nanoTime();
                acquireSent = true;
                AcquireResult result = store.acquireRun(request, mode);
                acquireSent = false;
                warnIfBlockedByForeignValue(job, request, result);
                switch (result.status()) {
                    case ACQUIRED:
                        return Admission.granted(grant(job, request, result.fencingToken(), true, started, sent, mode));
                    case CATCH_UP, RETRY, ABANDONED, MISSED, SUPERSEDED:
                        return Admission.recovery(result);
                    case ALREADY_RAN:
                        return refuse(job, nominalFireTime, RunOutcome.ALREADY_RAN, result.holder(), started, null);
                    case HISTORY_LOST:
                        historyLoss.warn(job.name(), nominalFireTime, result.holder());
                        return refuse(job, nominalFireTime, RunOutcome.HISTORY_LOST, result.holder(), started, null);
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
                    watch = watchForGrace(job, id);
                    if (watch == null) {
                        return refuse(job, nominalFireTime, RunOutcome.BUSY, result.holder(), started, null);
                    }
                    continue;
                }
                watch.await(pause(remaining, result.retryAfter()));
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
     * Runs {@code body} if this node wins the firing; the lease is released when the body ends.
     * An exception thrown by the body is rethrown after the lease is released and
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
        Admission admission = admit(job, nominalFireTime);
        if (!admission.granted()) {
            return admission.refusal();
        }
        JobPermit permit = admission.permit();
        try {
            body.run();
        } catch (RuntimeException | Error e) {
            permit.finish(e);
            throw e;
        }
        return permit.finish(null);
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
        return store instanceof JobPauses p ? p.paused(new JobId(config.namespace(), job)) : Optional.empty();
    }

    private JobPauses pauses() {
        if (store instanceof JobPauses p) {
            return p;
        }
        throw new UnsupportedOperationException("job-guard: the lease store " + store.getClass().getName()
                + " cannot pause jobs (the Redis store can)");
    }

    /**
     * The number of run leases this node holds now.
     *
     * @return live permits on this node
     */
    public int activeLeases() {
        return activeLeases.get();
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
     */
    public Optional<LeaseRecord> currentLease(String job) {
        return store.currentRunLease(new JobId(config.namespace(), job));
    }

    /**
     * The job's most recent fire times and who took them, newest first.
     *
     * @param job the job name
     * @return up to {@link JobGuardConfig#historySize()} entries
     */
    public List<LeaseRecord> recentFires(String job) {
        return store.recentFires(new JobId(config.namespace(), job), config.historySize());
    }

    /**
     * Deletes a job's run lease whoever holds it (operator action, logged at WARN).
     *
     * @param job the job name
     * @return {@code true} if a lease was deleted
     */
    public boolean forceRelease(String job) {
        boolean deleted = store.forceReleaseRun(new JobId(config.namespace(), job));
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
        return handOver.awaitThenGiveUp(wait, permit -> {
            permit.stopKeepAlive();
            leaseLost(permit, "the node is shutting down and gives the lease up");
            RunLeaseRequest request = permit.request();
            boolean released = store.releaseRun(request, Duration.ZERO);
            log.warn("job-guard: job '{}' T={} node={} still running at shutdown; lease given up (released={})",
                    request.job().name(), request.nominalFireTime(), config.nodeId(), released);
        }).size();
    }

    /** Stops the keep-alive thread; the store stays open. */
    @Override
    public void close() {
        keepAlive.close();
    }

    /** The release watch of a RETURN firing's grace, or null if it cannot be opened (the firing is then BUSY). */
    private ReleaseWatch watchForGrace(JobOptions job, JobId id) {
        try {
            return store.watchRunReleases(id);
        } catch (RuntimeException e) {
            log.debug("job-guard: job '{}' node={} cannot watch releases ({}); busy grace skipped", job.name(),
                    config.nodeId(), e.toString());
            return null;
        }
    }

    private Duration pause(long remainingNanos, Duration retryAfter) {
        // a missed (or, for stores without notifications, absent) release signal costs at most one poll interval
        long nanos = Math.min(remainingNanos, config.waitPollInterval().toNanos());
        if (retryAfter != null) {
            // wake just after the blocking lease or cool-down would expire by itself
            nanos = Math.min(nanos, retryAfter.toNanos() + 2_000_000L);
        }
        return Duration.ofNanos(nanos);
    }

    private JobPermit grant(JobOptions job, RunLeaseRequest request, long fence, boolean guarded, long started,
                            long sent, AcquireMode mode) {
        JobPermit permit = new JobPermit(this, job, request, fence, guarded, System.nanoTime() - started,
                LeaseDeadline.startingAt(sent, job.lease()));
        permit.recovery(mode.kind(), mode.kind() == AcquireMode.Kind.RETRY ? mode.attempt() + 1 : 1);
        activeLeases.incrementAndGet();
        handOver.started(permit);
        permit.bind();
        if (guarded && job.keepAlive()) {
            permit.keepAlive(keepAlive.start("run lease of job '" + job.name() + "'", job.lease(), permit.deadline(),
                    () -> store.renewRun(request), why -> leaseLost(permit, why)));
        }
        log.debug("job-guard: job '{}' T={} node={} acquired (fence {})", job.name(), request.nominalFireTime(),
                config.nodeId(), fence);
        return permit;
    }

    private Admission storeFailure(JobOptions job, RunLeaseRequest request, long started, RuntimeException e) {
        // The line names the store (its Redis endpoint) and carries every cause's own words; it repeats
        // on every firing while the store is down, so it is logged once per job per minute with a count.
        if (config.storeFailurePolicy() == StoreFailurePolicy.RUN) {
            repeatedWarnings.warn(log, "store-failure|" + job.name(),
                    "job-guard: job '{}' T={} node={} store {} unreachable ({}); running UNGUARDED as configured",
                    job.name(), request.nominalFireTime(), config.nodeId(), store, RateLimitedLog.causeChain(e));
            return Admission.granted(grant(job, request, -1, false, started, System.nanoTime(), AcquireMode.REGULAR));
        }
        repeatedWarnings.warn(log, "store-failure|" + job.name(),
                "job-guard: job '{}' T={} node={} outcome STORE_ERROR, skipped: store {} failed: {}", job.name(),
                request.nominalFireTime(), config.nodeId(), store, RateLimitedLog.causeChain(e));
        return refuse(job, request.nominalFireTime(), RunOutcome.STORE_ERROR, null, started, e);
    }

    /** Reports an outcome of the recovery of missed fire times and dead runs ({@link MissedFireTimes}). */
    void report(JobOptions job, Instant fireTime, RunOutcome outcome) {
        recordOutcome(job, fireTime, outcome);
        emit(new JobEvent(config.namespace(), job.name(), fireTime, config.nodeId(), outcome, Duration.ZERO,
                Duration.ZERO, -1, null));
    }

    private Admission refuse(JobOptions job, Instant fireTime, RunOutcome outcome, LeaseRecord holder, long started,
                             Throwable cause) {
        Duration acquire = Duration.ofNanos(System.nanoTime() - started);
        if (outcome != RunOutcome.STORE_ERROR && log.isDebugEnabled()) {
            log.debug("job-guard: job '{}' T={} node={} outcome {} (holder {})", job.name(), fireTime,
                    config.nodeId(), outcome, holder == null ? "unknown" : holder.describeHolder());
        }
        if (outcome == RunOutcome.PAUSED || outcome == RunOutcome.HISTORY_LOST) {
            recordOutcome(job, fireTime, outcome);
        }
        emit(new JobEvent(config.namespace(), job.name(), fireTime, config.nodeId(), outcome, acquire, Duration.ZERO,
                -1, cause));
        return Admission.refused(outcome);
    }

    /**
     * Keeps a fire time decided without a run in the job's recent fire times (one extra, rare store call:
     * only refusals that lose a fire time for good come here, never a firing that runs).
     */
    private void recordOutcome(JobOptions job, Instant fireTime, RunOutcome outcome) {
        if (!(store instanceof FireOutcomes history) || config.historySize() <= 0) {
            return;
        }
        try {
            history.recordOutcome(new JobId(config.namespace(), job.name()), fireTime, config.nodeId(), outcome.name(),
                    config.historySize());
        } catch (RuntimeException e) {
            repeatedWarnings.warn(log, "history-failure|" + job.name(),
                    "job-guard: job '{}' T={} node={} could not record outcome {} in the recent fire times: {}",
                    job.name(), fireTime, config.nodeId(), outcome, RateLimitedLog.causeChain(e));
        }
    }

    void finished(JobPermit permit, RunOutcome outcome, Throwable failure, long runNanos) {
        activeLeases.decrementAndGet();
        JobOptions job = permit.options();
        RunLeaseRequest request = permit.request();
        if (permit.guarded() && !permit.givenUp()) {
            try {
                boolean released = store instanceof FireOutcomes history
                        ? history.releaseRun(request, job.cooldown(), outcome.name(), Duration.ofNanos(runNanos))
                        : store.releaseRun(request, job.cooldown());
                if (!released) {
                    leaseLost(permit, "lease had expired or was taken over before release");
                }
            } catch (RuntimeException e) {
                repeatedWarnings.warn(log, "release-failure|" + job.name(),
                        "job-guard: job '{}' T={} node={} could not release its lease ({}); it expires by TTL",
                        job.name(), request.nominalFireTime(), config.nodeId(), RateLimitedLog.causeChain(e));
            } finally {
                // only now: a shutdown waiting for this run must not close the store before the release is done
                handOver.ended(permit);
            }
        } else {
            handOver.ended(permit);
        }
        log.debug("job-guard: job '{}' T={} node={} outcome {}", job.name(), request.nominalFireTime(),
                config.nodeId(), outcome);
        emit(new JobEvent(config.namespace(), job.name(), request.nominalFireTime(), config.nodeId(), outcome,
                Duration.ofNanos(permit.acquireNanos()), Duration.ofNanos(runNanos),
                permit.context().fencingToken(), failure));
    }

    /**
     * A refusal by a value job-guard did not write (another type, another format) or by an entry
     * without an expiry blocks the job until someone removes it, so it is a WARN naming the key,
     * once per job per minute, not a DEBUG line.
     */
    private void warnIfBlockedByForeignValue(JobOptions job, RunLeaseRequest request, AcquireResult result) {
        LeaseRecord holder = result.holder();
        // HISTORY_LOST's holder is the epoch (no TTL by design), not a blocking entry: HistoryLossLog reports it
        if (result.status() == AcquireResult.Status.ACQUIRED || result.status() == AcquireResult.Status.HISTORY_LOST
                || holder == null || (!holder.foreign() && holder.expiresIn() != null)) {
            return;
        }
        repeatedWarnings.warn(log, "foreign-value|" + job.name(),
                "job-guard: job '{}' T={} node={} refused ({}) by {} at key {} ({}); it blocks the job until it "
                        + "expires or is deleted", job.name(), request.nominalFireTime(), config.nodeId(),
                result.status(), holder.foreign() ? "a value job-guard did not write" : "an entry with no expiry",
                store.blockingKey(request, result.status()),
                holder.foreign() ? "value '" + holder.raw() + "'" + (holder.expiresIn() == null ? ", no TTL" : "")
                        : "no TTL");
    }

    private void leaseLost(JobPermit permit, String why) {
        if (!permit.markLost()) {
            return;
        }
        RunContext context = permit.context();
        log.warn("job-guard: job '{}' T={} node={} LEASE LOST ({}): the run is no longer exclusive", context.job(),
                context.nominalFireTime(), config.nodeId(), why);
        for (JobGuardListener listener : listeners) {
            try {
                listener.onLeaseLost(context);
            } catch (RuntimeException e) {
                listenerFailures.warn(log, "listener|" + context.job(), "job-guard: listener {} failed on job '{}': {}",
                        listener, context.job(), RateLimitedLog.causeChain(e));
            }
        }
        if (config.interruptOnLeaseLost()) {
            permit.interruptRunner();
        }
    }

    private void emit(JobEvent event) {
        for (JobGuardListener listener : listeners) {
            try {
                listener.onJobEvent(event);
            } catch (RuntimeException e) {
                listenerFailures.warn(log, "listener|" + event.job(), "job-guard: listener {} failed on job '{}': {}",
                        listener, event.job(), RateLimitedLog.causeChain(e));
            }
        }
    }
}
