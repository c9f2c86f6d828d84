package io.jobguard.examples.fault;

import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import io.jobguard.RunContext;
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

    JobGuardJobs(NodeLedger ledger, BatchLocks locks) {
        this.ledger = ledger;
        this.locks = locks;
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
}
