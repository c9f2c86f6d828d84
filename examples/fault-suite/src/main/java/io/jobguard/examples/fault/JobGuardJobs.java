package io.jobguard.examples.fault;

import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLocks;
import io.jobguard.store.LeaseStoreException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** The suite's jobs guarded by job-guard ({@code fault.library=job-guard}). */
@Component
@ConditionalOnProperty(name = "fault.library", havingValue = "job-guard")
class JobGuardJobs {

    private final NodeLedger ledger;
    private final BatchLocks locks;
    private final AtomicLong batches = new AtomicLong();

    JobGuardJobs(NodeLedger ledger, BatchLocks locks, JobGuard guard) {
        this.ledger = ledger;
        this.locks = locks;
        // the retry job's outcomes, as this node's job-guard reports them, go to the ledger for the checker; the
        // ALREADY_RAN of every firing a node loses, and the ASSIGNED_ELSEWHERE of a firing the fleet spread left to
        // another node, say nothing about the fire time and are left out
        guard.addListener(event -> {
            if (event.job().equals(JobWork.RETRYING) && event.outcome() != RunOutcome.ALREADY_RAN
                    && event.outcome() != RunOutcome.ASSIGNED_ELSEWHERE) {
                ledger.outcome(event.job(), event.nominalFireTime(), event.fencingToken(), event.outcome().name(),
                        event.attempt());
            }
        });
    }

    @Scheduled(cron = "* * * * * *")
    @ClusterSingleton(name = JobWork.EVERY_SECOND, type = GuardType.RETURN, lease = "5s")
    public void everySecond() throws InterruptedException {
        run(JobWork.EVERY_SECOND, JobWork.EVERY_SECOND_WORK);
    }

    @Scheduled(cron = "*/2 * * * * *")
    @ClusterSingleton(name = JobWork.EVERY_2S_WAIT, type = GuardType.WAIT, lease = "5s", waitFor = "3s")
    public void every2sWait() throws InterruptedException {
        run(JobWork.EVERY_2S_WAIT, JobWork.WAIT_WORK);
    }

    /**
     * The retry job: attempts 1 and 2 of every fire time fail and attempt 3 succeeds, wherever each runs (the
     * failing node's own pass, another node's pass, or a regular firing that re-runs an attempt whose node died).
     * Each attempt's start and end go to the ledger before it fails or returns. The job's delivery is the default
     * ({@code AT_MOST_ONCE}) unless {@code jobguard.jobs.retry-failing.delivery} says otherwise.
     *
     * @throws InterruptedException if the node stops meanwhile
     */
    @Scheduled(cron = "${fault.retry-cron:" + JobWork.RETRY_CRON + "}")
    @ClusterSingleton(name = JobWork.RETRYING, type = GuardType.RETURN, lease = "5s", attempts = JobWork.RETRY_ATTEMPTS,
            retryBackoff = "1s", retryMultiplier = "1", retryJitter = "0")
    public void failingTwice() throws InterruptedException {
        RunContext context = RunContext.current().orElseThrow();
        int attempt = context.attempt();
        ledger.attemptStart(JobWork.RETRYING, context.nominalFireTime(), context.fencingToken(), attempt);
        try {
            Thread.sleep(JobWork.RETRY_WORK.toMillis());
        } finally {
            ledger.attemptEnd(JobWork.RETRYING, context.nominalFireTime(), context.fencingToken(), attempt,
                    context.isLeaseLost());
        }
        if (attempt < JobWork.RETRY_ATTEMPTS) {
            throw new AttemptFails(attempt);
        }
    }

    @Scheduled(fixedDelay = 200)
    public void batch() throws InterruptedException {
        BatchAttempt attempt;
        try {
            attempt = locks.tryAcquire(JobWork.BATCH, JobWork.batchKeys(), JobWork.LEASE);
        } catch (LeaseStoreException e) {
            return; // Redis unreachable: nothing is locked, nothing runs
        }
        if (!attempt.acquired()) {
            return;
        }
        long id = batches.incrementAndGet();
        try (BatchLease lease = attempt.orElseThrow()) {
            ledger.batchStart(JobWork.BATCH, id, lease.fencingToken(), lease.keys());
            JobWork.holdBatch();
            // recorded before the release is sent, so the recorded interval is inside the held one
            ledger.batchEnd(JobWork.BATCH, id, lease.fencingToken(), !lease.isValid());
        }
    }

    private void run(String job, Duration work) throws InterruptedException {
        RunContext context = RunContext.current().orElseThrow();
        ledger.start(job, context.nominalFireTime(), context.fencingToken());
        try {
            Thread.sleep(work.toMillis());
        } finally {
            ledger.end(job, context.nominalFireTime(), context.fencingToken(), context.isLeaseLost());
        }
    }

    /**
     * The retry job's planned failure. Without a stack trace: Spring's scheduler logs every failure of a scheduled
     * method, and two a fire time would otherwise fill the node's log with identical traces.
     */
    static final class AttemptFails extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AttemptFails(int attempt) {
            super("attempt " + attempt + " of " + JobWork.RETRYING + " fails on purpose", null, false, false);
        }
    }
}
