package io.jobguard.internal.engine;

import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * No fire time lost in silence: admits a job's regular firings like {@link JobGuard#admit(JobOptions, Instant)} and,
 * before the regular run, recovers what the job's run record in the store shows was lost. Fire times nobody started
 * within the catch-up window run late (in order, each once in the cluster) or are reported
 * {@link RunOutcome#MISSED}, as the job's {@link MisfirePolicy} says; a run that started and never completed runs
 * again under {@link Delivery#AT_LEAST_ONCE}, or is reported {@link RunOutcome#ABANDONED} once under
 * {@link Delivery#AT_MOST_ONCE}. Fire times refused as {@link RunOutcome#HISTORY_LOST} are never caught up or
 * retried. A firing with nothing to recover costs the single round trip of an admission: the checks run inside the
 * acquire script.
 *
 * <p>An engine has one instance ({@link JobGuardEngine#missedFireTimeRecovery()}). On one node a job's recovery has one
 * owner: {@link #admit} and {@link #recover(JobOptions, RecoveryOptions, Runnable)} (the start-up and background
 * passes) take one per-job lock, so they never lose a fire time to each other. Thread-safe. The rules, the run
 * record's invariant and the cases after a loss: docs/missed-fire-times.md.
 */
public final class MissedFireTimeRecovery {

    private static final Logger log = LoggerFactory.getLogger(MissedFireTimeRecovery.class);


    /** Bounds the recovery rounds before one regular firing (each round handles one finding). */
    private static final int MAX_ROUNDS = 4;

    private final RecoveryEngine guard;
    private final RecoveryReports reports;
    /** One recovery owner per job on this node: the engine has one instance of this class, so one lock per job. */
    private final RecoveryOwners owners = new RecoveryOwners();
    private final DueFireTimes due;

    /** The recovery of {@code guard}; created once, by the engine ({@link JobGuardEngine#missedFireTimeRecovery()}). */
    MissedFireTimeRecovery(RecoveryEngine guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.reports = new RecoveryReports(guard);
        this.due = new DueFireTimes(guard);
    }

    /**
     * Admits the regular firing of {@code job} for {@code nominalFireTime}, after running (on the
     * calling thread, with {@code body}) the catch-ups and retries the store reports. Never throws
     * for store failures or for a failing {@code body} in a recovery run (reported as
     * {@link RunOutcome#FAILED}). Waits while another thread of this node recovers the same job
     * (one owner per job and node); interrupted while waiting, the firing is refused as
     * {@link RunOutcome#BUSY}.
     *
     * @param job             how the job is guarded
     * @param recovery        how it recovers lost fire times
     * @param nominalFireTime the fire time the schedule designated
     * @param body            the job's work, for the recovery runs ({@link RunContext#current()}
     *                        tells them apart)
     * @return the admission of the regular firing; a granted permit must be finished
     */
    public EngineAdmission admit(JobOptions job, RecoveryOptions recovery, Instant nominalFireTime, Runnable body) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(recovery, "recovery");
        Objects.requireNonNull(body, "body");
        return asOwner(job, () -> admitOwned(job, recovery, nominalFireTime, body), () -> {
            guard.report(job, nominalFireTime, RunOutcome.BUSY);
            return EngineAdmission.refused(RunOutcome.BUSY);
        });
    }

    /** {@link #admit}, holding the job's recovery owner lock of this node. */
    private EngineAdmission admitOwned(JobOptions job, RecoveryOptions recovery, Instant nominalFireTime, Runnable body) {
        // the fire time right before this one: the script grants this one only once that one was handled, so a
        // regular firing never moves the record past fire times nobody handled
        Instant previous = CatchUpWindow.previous(recovery, nominalFireTime, guard.config().clock().instant());
        AcquireMode mode = AcquireMode.regular(previous, delivery(recovery), recovery.maxAttempts());
        for (int round = 0; round < MAX_ROUNDS; round++) {
            EngineAdmission admission = guard.admit(job, nominalFireTime, mode);
            AcquireResult found = admission.recovery();
            if (found == null) {
                return admission;
            }
            switch (found.status()) {
                case RETRY -> retry(job, found.record().started(), found.record().attempt(), body);
                case ABANDONED -> reports.abandoned(job, recovery, found.record().started(), found.record().attempt());
                case CATCH_UP -> {
                    // fire times after dueAfter are not missed: a live node whose clock lags this one's has not fired
                    // them yet. Those before it are handled as the policy says; these are due, and run here now
                    Instant dueAfter = due.after(job, previous);
                    catchUp(job, recovery, found.record().handled(), dueAfter != null ? dueAfter : nominalFireTime,
                            dueAfter != null, found.acquiredAt(), body);
                    if (dueAfter != null) {
                        due.run(job, recovery, dueAfter, nominalFireTime, body);
                    }
                }
                default -> {
                    return guard.admit(job, nominalFireTime, AcquireMode.REGULAR);
                }
            }
        }
        // still finding work after these rounds (another node is catching up): this fire time waits its
        // turn as a missed one rather than overtaking catch-ups that are not done
        guard.report(job, nominalFireTime, RunOutcome.BUSY);
        return EngineAdmission.refused(RunOutcome.BUSY);
    }

    /**
     * Recovers at a node's start what the job's run record shows was lost while no node ran it:
     * missed fire times up to now (less the skew tolerance, left to the regular firings) as the
     * policy says, and a run that died under {@link Delivery#AT_LEAST_ONCE} once its lease expired.
     * Runs on the calling thread, as the job's one recovery owner on this node (it waits while a
     * firing of this node catches the job up); never throws for store failures (logged at WARN).
     *
     * @param job      how the job is guarded
     * @param recovery how it recovers lost fire times
     * @param body     the job's work
     * @return {@code false} if the store could not be reached (to read the job's run record or for a
     *         catch-up), a catch-up could not start while the job's lease was held (a run, or a dead one until
     *         its lease expires), or the thread was interrupted while waiting for the job's owner lock
     */
    public boolean recover(JobOptions job, RecoveryOptions recovery, Runnable body) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(recovery, "recovery");
        Objects.requireNonNull(body, "body");
        return asOwner(job, () -> recoverOwned(job, recovery, body), () -> false);
    }

    /**
     * Runs {@code action} as the job's one recovery owner on this node (holding the engine's lock of the job), or
     * {@code interrupted} if the thread is interrupted while it waits for the lock.
     */
    private <T> T asOwner(JobOptions job, Supplier<T> action, Supplier<T> interrupted) {
        ReentrantLock owner = owners.of(job.name());
        try {
            owner.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return interrupted.get();
        }
        try {
            return action.get();
        } finally {
            owner.unlock();
        }
    }

    /** {@link #recover}, holding the job's recovery owner lock of this node. */
    private boolean recoverOwned(JobOptions job, RecoveryOptions recovery, Runnable body) {
        Optional<RunRecord> found;
        try {
            found = runRecord(job);
        } catch (RuntimeException e) {
            log.warn("job-guard: job '{}' node={} cannot read its run record ({}); missed fire times are recovered "
                    + "later", job.name(), guard.config().nodeId(), e.getMessage());
            return false;
        }
        if (found.isEmpty()) {
            return true;
        }
        RunRecord record = found.get();
        if (recovery.delivery() == Delivery.AT_LEAST_ONCE && record.startedNotCompleted()
                && record.attempt() < recovery.maxAttempts()) {
            // the script grants the retry only once the dead run's lease is gone
            retry(job, record.started(), record.attempt(), body);
        }
        Instant upTo = guard.config().clock().instant().minus(guard.config().skewTolerance());
        if (recovery.schedule() != null && record.handled().isBefore(upTo)) {
            return catchUp(job, recovery, record.handled(), upTo, true, null, body);
        }
        return true;
    }

    /**
     * Runs the pending attempt of a failed fire time of {@code job}, if the run record holds one and the store finds it
     * due ({@link io.jobguard.JobGuard#runDueRetry}), as the job's one recovery owner on this node.
     *
     * @param job  how the job is guarded
     * @param body the job's work
     * @return {@code false} if the store could not be reached, else {@code true}
     */
    public boolean runDueRetry(JobOptions job, Runnable body) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(body, "body");
        return asOwner(job, () -> runDueRetryOwned(job, body), () -> false);
    }

    /** {@link #runDueRetry}, holding the job's recovery owner lock of this node. */
    private boolean runDueRetryOwned(JobOptions job, Runnable body) {
        RunRecord.PendingRetry pending;
        try {
            pending = runRecord(job).map(RunRecord::retry).orElse(null);
        } catch (RuntimeException e) {
            log.warn("job-guard: job '{}' node={} cannot read its run record ({}); a pending retry runs later",
                    job.name(), guard.config().nodeId(), e.getMessage());
            return false;
        }
        if (pending == null) {
            return true;
        }
        EngineAdmission admission = guard.admit(job, pending.fireTime(),
                AcquireMode.retryFailed(pending.failedAttempt()));
        if (!admission.granted()) {
            // not due yet, paused, held by a run, or run or superseded by another node: a later look decides
            return !unreachable(admission);
        }
        log.info("job-guard: job '{}' T={} node={} attempt {} runs with fencing token {} (attempt {} failed)",
                job.name(), pending.fireTime(), guard.config().nodeId(), pending.failedAttempt() + 1,
                admission.permit().context().fencingToken(), pending.failedAttempt());
        runBody(admission.permit(), body);
        return true;
    }

    /**
     * When the pending attempt of a failed fire time of {@code job} is due, on this node's clock: the store's due time
     * moved by this node's offset from the store's clock (read with it), so that a node whose clock lags looks on time.
     *
     * @param job how the job is guarded
     * @return that time, or empty when none is pending or the store cannot be read
     */
    public Optional<Instant> retryDueAt(JobOptions job) {
        try {
            Optional<RunRecord.PendingRetry> pending = runRecord(job).map(RunRecord::retry);
            if (pending.isEmpty()) {
                return Optional.empty();
            }
            Duration offset = Duration.between(guard.capabilities().store().serverTime(),
                    guard.config().clock().instant());
            return Optional.of(pending.get().due().plus(offset));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * When {@link #recover} should look at the job again, so that a fire time nobody started is found
     * even where the job's next firing cannot see it: the first fire time after the record's latest
     * handled one (or after now, without a record) plus the skew tolerance, if that fire time is
     * already due, or if the job's next firing after it would find it outside the catch-up window (a
     * daily job with a one-hour window: a 02:00 every node skipped because Redis was unreachable would
     * otherwise wait a day and then be too old).
     *
     * @param job      how the job is guarded
     * @param recovery how it recovers lost fire times
     * @return the instant to recover again, or empty when the regular firings cover the job or the
     *         record cannot be read
     */
    public Optional<Instant> pendingUntil(JobOptions job, RecoveryOptions recovery) {
        FireTimeSchedule schedule = recovery.schedule();
        if (schedule == null) {
            return Optional.empty();
        }
        try {
            Optional<RunRecord> record = runRecord(job);
            Instant now = guard.config().clock().instant();
            Instant next = schedule.next(record.map(RunRecord::handled).orElse(now));
            if (next == null) {
                return Optional.empty();
            }
            Instant settled = next.plus(guard.config().skewTolerance());
            if (!next.isAfter(now)) {
                return Optional.of(settled);
            }
            Instant after = schedule.next(next);
            boolean seenByNextFiring = after != null && !next.isBefore(after.minus(recovery.catchUpWindow()));
            return seenByNextFiring ? Optional.empty() : Optional.of(settled);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    static AcquireMode.Delivery delivery(RecoveryOptions recovery) {
        return recovery.delivery() == Delivery.AT_LEAST_ONCE ? AcquireMode.Delivery.RETRY : AcquireMode.Delivery.REPORT;
    }

    /**
     * The fire times after {@code handled} and before {@code end} (or at it, if inclusive): those in
     * the window run or are reported as the policy says; those before {@code lostUntil} (after a loss of the store's
     * history, null if none) are refused and reported {@link RunOutcome#HISTORY_LOST}, never run nor reported missed.
     *
     * @return false if the store could not be reached for one of them (they wait for the next look)
     */
    private boolean catchUp(JobOptions job, RecoveryOptions recovery, Instant handled, Instant end, boolean inclusive,
                            Instant lostUntil, Runnable body) {
        if (recovery.schedule() == null) {
            return true;
        }
        CatchUpWindow.FireTimes due = CatchUpWindow.between(recovery, handled, end, inclusive,
                guard.config().clock().instant());
        List<Instant> missed = new ArrayList<>();
        List<Instant> lost = new ArrayList<>();
        for (Instant nominalFireTime : due.inWindow()) {
            (lostUntil != null && nominalFireTime.isBefore(lostUntil) ? lost : missed).add(nominalFireTime);
        }
        int outside = due.outside();
        if (missed.isEmpty()) {
            if (lost.isEmpty()) {
                return true;
            }
            // only refused ones: the node that declares them handled (one in the cluster) reports them, and the
            // declaration itself records them
            EngineAdmission claim = guard.admit(job, lost.get(lost.size() - 1),
                    declaring(job, AcquireMode.Kind.MISS, handled, lost, List.of()));
            if (claim.recovery() != null && claim.recovery().status() == AcquireResult.Status.MISSED) {
                reports.lost(job, recovery, lost, outside, true);
            }
            return !unreachable(claim);
        }
        int runs = switch (recovery.misfirePolicy()) {
            case SKIP -> 0;
            case RUN_LATEST -> 1;
            case RUN_ALL -> Math.min(recovery.catchUpMax(), missed.size());
        };
        List<Instant> skipped = missed.subList(0, missed.size() - runs);
        List<Instant> toRun = missed.subList(missed.size() - runs, missed.size());
        if (toRun.isEmpty()) {
            Instant last = missed.get(missed.size() - 1);
            EngineAdmission claim = guard.admit(job, last, declaring(job, AcquireMode.Kind.MISS, handled, lost, skipped));
            if (claim.recovery() != null && claim.recovery().status() == AcquireResult.Status.MISSED) {
                reports.lost(job, recovery, lost, 0, true);
                reports.missed(job, recovery, skipped, outside);
            }
            return !unreachable(claim);
        }
        Instant before = handled;
        for (Instant nominalFireTime : toRun) {
            // the gap's first catch-up declares what the gap passes over: the store records it with the grant
            EngineAdmission admission = guard.admit(job, nominalFireTime, before == handled
                    ? declaring(job, AcquireMode.Kind.CATCH_UP, handled, lost, skipped) : AcquireMode.catchUp(before));
            AcquireResult refused = admission.recovery();
            if (!admission.granted() && refused != null && refused.status() == AcquireResult.Status.HISTORY_LOST) {
                // refused after a loss, and this node moved the record over it: the call recorded the fire times
                // before it that it passed over (refused with it); this node reports them and goes on with the next
                // (at the first step the fire times the policy skips are among them)
                reports.lost(job, recovery, refused.record().handled(), nominalFireTime);
                before = nominalFireTime;
                continue;
            }
            if (!admission.granted()) {
                // another node handles these fire times (SUPERSEDED, ALREADY_RAN), or the job is busy or
                // the store unreachable: the record keeps the gap for the next firing
                log.debug("job-guard: job '{}' T={} node={} catch-up not run here ({})", job.name(), nominalFireTime,
                        guard.config().nodeId(), admission.recovery() != null ? admission.recovery().status()
                                : admission.refusal());
                return !unreachable(admission) && !held(admission);
            }
            if (before == handled) {
                // this node won the first catch-up: it alone reports the fire times the policy skips, and those refused
                reports.lost(job, recovery, lost, 0, true);
                reports.missed(job, recovery, skipped, outside);
            }
            log.info("job-guard: job '{}' T={} node={} missed fire time CAUGHT_UP ({}), {} late", job.name(),
                    nominalFireTime, guard.config().nodeId(), recovery.misfirePolicy(),
                    Duration.between(nominalFireTime, guard.config().clock().instant()));
            runBody(admission.permit(), body);
            before = nominalFireTime;
        }
        return true;
    }

    /** The most fire times one catch-up or miss call records in the history. */
    static final int MAX_DECLARED = 1_000;

    /**
     * A catch-up or miss attempt that declares the fire times it passes over, for the store to record with it: the
     * latest of them, as many as the job's history keeps (older ones would be trimmed at once), and at most
     * {@value #MAX_DECLARED} so that one script call stays short (the recovery's log line counts them all).
     */
    private AcquireMode declaring(JobOptions job, AcquireMode.Kind kind, Instant handled, List<Instant> lost,
                                  List<Instant> missed) {
        int keep = Math.min(MAX_DECLARED, Math.max(0, HistoryLimits.size(guard.config(), job)));
        List<Instant> keptMissed = missed.subList(Math.max(0, missed.size() - keep), missed.size());
        List<Instant> keptLost = lost.subList(Math.max(0, lost.size() - (keep - keptMissed.size())), lost.size());
        return kind == AcquireMode.Kind.MISS ? AcquireMode.miss(handled, keptLost, keptMissed)
                : AcquireMode.catchUp(handled, keptLost, keptMissed);
    }

    private static boolean unreachable(EngineAdmission refused) {
        return refused.recovery() == null && !refused.granted() && refused.refusal() == RunOutcome.STORE_ERROR;
    }

    /** A catch-up that could not start while the job's lease is held: the gap waits for a later look. */
    private static boolean held(EngineAdmission refused) {
        return refused.recovery() == null && !refused.granted()
                && refused.refusal() == RunOutcome.BUSY;
    }

    private void retry(JobOptions job, Instant nominalFireTime, int attempt, Runnable body) {
        EngineAdmission admission = guard.admit(job, nominalFireTime, AcquireMode.retry(attempt));
        if (!admission.granted()) {
            return;
        }
        log.info("job-guard: job '{}' T={} node={} RETRIED: attempt {} started and never completed; attempt {} "
                        + "runs with fencing token {}", job.name(), nominalFireTime, guard.config().nodeId(), attempt,
                attempt + 1, admission.permit().context().fencingToken());
        runBody(admission.permit(), body);
    }

    static void runBody(EnginePermit permit, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            // a failing recovery run is reported (FAILED) and must not keep the regular run from starting
            permit.finish(e);
            return;
        } catch (Error e) {
            permit.finish(e);
            throw e;
        }
        permit.finish(null);
    }

    /** The job's run record; a store without {@link io.jobguard.store.RunRecovery} has none: nothing to recover. */
    private Optional<RunRecord> runRecord(JobOptions job) {
        return guard.capabilities().runRecord(new JobId(guard.config().namespace(), job.name()));
    }
}
