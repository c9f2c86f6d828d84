package io.jobguard.internal.engine;

import io.jobguard.JobEvent;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobGuardListener;
import io.jobguard.JobOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.internal.KeepAlive;
import io.jobguard.internal.LeaseDeadline;
import io.jobguard.internal.RateLimitedLog;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one engine gives each permit it grants: the store to renew and release on, the keep-alive, the
 * listeners to tell of outcomes and lost leases, and the book of live runs for a graceful shutdown. A
 * {@link EnginePermit} drives its own lifecycle (keep-alive, lease loss, finish, release) through it, so the
 * engine never receives callbacks from its permits.
 */
final class RunLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RunLifecycle.class);

    private final LeaseStore store;
    private final StoreCapabilities capabilities;
    private final JobGuardConfig config;
    private final List<JobGuardListener> listeners;
    private final KeepAlive keepAlive;
    private final AtomicInteger activeLeases = new AtomicInteger();
    private final AtomicLong releaseFailureCount = new AtomicLong();
    private final Set<CompletableFuture<Boolean>> pendingReleases = ConcurrentHashMap.newKeySet();
    private final LeaseHandOver handOver = new LeaseHandOver();
    /** A store outage fails every release: one WARN per job per minute, with a count. */
    private final RateLimitedLog releaseFailures;
    private final RateLimitedLog listenerFailures;

    RunLifecycle(StoreCapabilities capabilities, JobGuardConfig config, List<JobGuardListener> listeners,
                 KeepAlive keepAlive) {
        this.capabilities = capabilities;
        this.store = capabilities.store();
        this.config = config;
        this.listeners = listeners;
        this.keepAlive = keepAlive;
        this.releaseFailures = new RateLimitedLog(config.clock(), Duration.ofMinutes(1));
        this.listenerFailures = new RateLimitedLog(config.clock(), Duration.ofMinutes(1));
    }

    JobGuardConfig config() {
        return config;
    }

    /** Whether a failed run's next attempt can be left pending in the store ({@link StoreCapabilities}). */
    boolean retriesFailedRuns() {
        return capabilities.retriesFailedRuns();
    }

    int activeLeases() {
        return activeLeases.get();
    }

    LeaseHandOver handOver() {
        return handOver;
    }

    /** Grants a permit on the admitted thread: the lease's local deadline starts at the acquire's send time. */
    EnginePermit grant(JobOptions job, RunLeaseRequest request, long fence, boolean guarded, long startedNanos,
                    long sentNanos, AcquireMode mode) {
        EnginePermit permit = EnginePermit.start(this, job, request, fence, guarded, System.nanoTime() - startedNanos,
                LeaseDeadline.startingAt(sentNanos, job.lease()), mode);
        log.debug("job-guard: job '{}' T={} node={} acquired (fence {})", job.name(), request.nominalFireTime(),
                config.nodeId(), fence);
        return permit;
    }

    /** Counts the permit as live and, for a guarded run that asked for it, starts renewing its lease. */
    void started(EnginePermit permit) {
        activeLeases.incrementAndGet();
        handOver.started(permit);
        JobOptions job = permit.options();
        if (permit.guarded() && job.keepAlive()) {
            RunLeaseRequest request = permit.request();
            permit.keepAlive(keepAlive.start("run lease of job '" + job.name() + "'", job.lease(), permit.deadline(),
                    () -> store.renewRun(request), why -> leaseLost(permit, why)));
        }
    }

    /**
     * Ends a finished permit's run: sends the release of its lease if it still holds one, without waiting for
     * the reply on the caller's thread (the store orders it before this node's next acquire), and reports the
     * outcome. When the reply comes, a lease lost meanwhile is reported (never deleted) and a failed release
     * is logged and counted; only then does the run leave the book a graceful shutdown waits on.
     */
    void ended(EnginePermit permit, RunOutcome outcome, Throwable failure, long runNanos) {
        activeLeases.decrementAndGet();
        JobOptions job = permit.options();
        RunLeaseRequest request = permit.request();
        int attempt = permit.context().attempt();
        if (permit.guarded() && !permit.givenUp()) {
            CompletableFuture<Boolean> release;
            try {
                // with the run's outcome, duration and attempt on its history entry when the store keeps them, and
                // its next attempt left pending (same call): the back-off counts on the store's clock from here
                Duration retryAfter = outcome == RunOutcome.RETRY_PENDING
                        ? job.retry().backoffAfter(attempt, ThreadLocalRandom.current()::nextDouble) : null;
                if (retryAfter != null) {
                    log.info("job-guard: job '{}' T={} node={} attempt {} failed ({}); attempt {} is due in {} on any"
                                    + " node", job.name(), request.nominalFireTime(), config.nodeId(), attempt,
                            failure, attempt + 1, retryAfter);
                }
                release = capabilities.releaseRun(request, job.cooldown(),
                        new RunEnd(outcome.name(), Duration.ofNanos(runNanos), attempt, retryAfter)
                                .withFailure(failure))
                        .toCompletableFuture();
            } catch (RuntimeException e) {
                release = CompletableFuture.failedFuture(e);
            }
            pendingReleases.add(release);
            CompletableFuture<Boolean> sent = release;
            release.whenComplete((released, releaseFailure) -> {
                try {
                    if (releaseFailure != null) {
                        releaseFailed(job, request, releaseFailure);
                    } else if (!released) {
                        leaseLost(permit, "lease had expired or was taken over before release");
                    }
                } finally {
                    pendingReleases.remove(sent);
                    // only now: a shutdown waiting for this run must not close the store before the release is done
                    handOver.ended(permit);
                }
            });
        } else {
            handOver.ended(permit);
        }
        log.debug("job-guard: job '{}' T={} node={} outcome {}", job.name(), request.nominalFireTime(),
                config.nodeId(), outcome);
        emit(new JobEvent(config.namespace(), job.name(), request.nominalFireTime(), config.nodeId(), outcome,
                Duration.ofNanos(permit.acquireNanos()), Duration.ofNanos(runNanos),
                permit.context().fencingToken(), failure, attempt));
    }

    private void releaseFailed(JobOptions job, RunLeaseRequest request, Throwable failure) {
        releaseFailureCount.incrementAndGet();
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        releaseFailures.warn(log, "release-failure|" + job.name(),
                "job-guard: job '{}' T={} node={} could not release its lease ({}); it expires by TTL",
                job.name(), request.nominalFireTime(), config.nodeId(), RateLimitedLog.causeChain(cause));
    }

    long releaseFailures() {
        return releaseFailureCount.get();
    }

    /**
     * Waits up to {@code max} for the releases sent and not yet answered, so that closing the store after
     * this does not drop them; those still unanswered then are logged (their leases expire by TTL).
     */
    void flushReleases(Duration max) {
        CompletableFuture<?>[] pending = pendingReleases.toArray(new CompletableFuture<?>[0]);
        try {
            CompletableFuture.allOf(pending).get(max.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            // each failure was logged and counted by its own callback
        } catch (TimeoutException e) {
            log.warn("job-guard: node {} closes with {} lease release(s) unanswered after {}; they expire by TTL",
                    config.nodeId(), pendingReleases.size(), max);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Gives up a run's lease at shutdown: the run is told first, then its lease is released (owner-checked). */
    void giveUp(EnginePermit permit) {
        permit.stopKeepAlive();
        leaseLost(permit, "the node is shutting down and gives the lease up");
        RunLeaseRequest request = permit.request();
        boolean released = store.releaseRun(request, Duration.ZERO);
        log.warn("job-guard: job '{}' T={} node={} still running at shutdown; lease given up (released={})",
                request.job().name(), request.nominalFireTime(), config.nodeId(), released);
    }

    /** Marks the lease lost (once), logs it, tells the listeners and, when configured, interrupts the run. */
    void leaseLost(EnginePermit permit, String why) {
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
                listenerFailed(listener, context.job(), e);
            }
        }
        if (config.interruptOnLeaseLost()) {
            permit.interruptRunner();
        }
    }

    /** Reports a firing that did not run (refused, or settled by the recovery of missed fire times). */
    void refused(JobOptions job, Instant nominalFireTime, RunOutcome outcome, LeaseRecord holder, long acquireNanos,
                 Throwable cause) {
        if (outcome == RunOutcome.PAUSED || outcome == RunOutcome.HISTORY_LOST) {
            recordOutcome(job, nominalFireTime, outcome);
        }
        announce(job, nominalFireTime, outcome, holder, acquireNanos, cause);
    }

    /** Tells the listeners of a fire time that did not run here, without recording it (the store already has). */
    void announce(JobOptions job, Instant nominalFireTime, RunOutcome outcome, LeaseRecord holder, long acquireNanos,
                  Throwable cause) {
        if (outcome != RunOutcome.STORE_ERROR && log.isDebugEnabled()) {
            log.debug("job-guard: job '{}' T={} node={} outcome {} (holder {})", job.name(), nominalFireTime,
                    config.nodeId(), outcome, holder == null ? "unknown" : holder.describeHolder());
        }
        emit(new JobEvent(config.namespace(), job.name(), nominalFireTime, config.nodeId(), outcome,
                Duration.ofNanos(acquireNanos), Duration.ZERO, -1, cause));
    }

    /**
     * Keeps a fire time decided without a run in the job's recent fire times: one extra, rare store call,
     * only for decisions that settle a fire time for good (paused, history lost, missed, abandoned, ...),
     * never on a firing that runs. A store without {@link io.jobguard.store.OutcomeRecording} keeps none.
     */
    void recordOutcome(JobOptions job, Instant nominalFireTime, RunOutcome outcome) {
        int historySize = HistoryLimits.size(config, job);
        if (historySize <= 0) {
            return;
        }
        try {
            capabilities.recordOutcome(new JobId(config.namespace(), job.name()), nominalFireTime, config.nodeId(),
                    outcome.name(), historySize);
        } catch (RuntimeException e) {
            releaseFailures.warn(log, "history-failure|" + job.name(),
                    "job-guard: job '{}' T={} node={} could not record outcome {} in the recent fire times: {}",
                    job.name(), nominalFireTime, config.nodeId(), outcome, RateLimitedLog.causeChain(e));
        }
    }

    /** Tells every listener of an outcome; a failing listener is logged and never stops the others. */
    void emit(JobEvent event) {
        for (JobGuardListener listener : listeners) {
            try {
                listener.onJobEvent(event);
            } catch (RuntimeException e) {
                listenerFailed(listener, event.job(), e);
            }
        }
    }

    private void listenerFailed(JobGuardListener listener, String job, RuntimeException e) {
        listenerFailures.warn(log, "listener|" + job, "job-guard: listener {} failed on job '{}': {}", listener, job,
                RateLimitedLog.causeChain(e));
    }
}
