package io.jobguard.test;

import io.jobguard.JobEvent;
import io.jobguard.JobGuardListener;
import io.jobguard.RunContext;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The outcomes one engine reported, in order, and the lease losses a test waits for: the tester's own record,
 * beside the store's history, because refusals ({@code ALREADY_RAN}, {@code BUSY}, {@code STORE_ERROR}) write
 * nothing to a store. Thread-safe.
 */
final class FiringRecord implements JobGuardListener {

    private final List<JobEvent> events = new CopyOnWriteArrayList<>();
    private final List<LossWait> lossWaits = new CopyOnWriteArrayList<>();

    @Override
    public void onJobEvent(JobEvent event) {
        events.add(event);
    }

    @Override
    public void onLeaseLost(RunContext context) {
        for (LossWait wait : lossWaits) {
            if (wait.job.equals(context.job())) {
                wait.noticed.countDown();
                lossWaits.remove(wait);
            }
        }
    }

    List<JobEvent> events(String job) {
        return events.stream().filter(e -> e.job().equals(job)).toList();
    }

    Optional<JobEvent> last(String job, Instant nominalFireTime) {
        return events(job).stream().filter(e -> e.nominalFireTime().equals(nominalFireTime))
                .reduce((first, second) -> second);
    }

    /** Registers a wait for the next lease loss of {@code job}, before the loss is caused, so it cannot be missed. */
    LossWait expectLoss(String job) {
        LossWait wait = new LossWait(job);
        lossWaits.add(wait);
        return wait;
    }

    /** One wait for the engine to flag a job's lease lost. */
    static final class LossWait {
        private final String job;
        private final CountDownLatch noticed = new CountDownLatch(1);

        LossWait(String job) {
            this.job = job;
        }

        /**
         * Waits for the loss. An interrupt that comes with the loss (the engine interrupts a run whose lease it
         * flagged lost, when configured to) is kept for the caller, not taken as a failure.
         *
         * @return {@code true} once the engine flagged the loss, {@code false} if {@code max} passed first
         */
        boolean await(Duration max) {
            try {
                return noticed.await(max.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (noticed.getCount() == 0) {
                    return true;
                }
                throw new IllegalStateException("interrupted while waiting for the engine to notice a lost lease", e);
            }
        }
    }
}
