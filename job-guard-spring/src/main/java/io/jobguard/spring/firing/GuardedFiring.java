package io.jobguard.spring.firing;

import org.springframework.scheduling.SchedulingAwareRunnable;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * One firing of a guarded {@code @Scheduled} method, carrying its nominal fire time: running it runs
 * Spring's scheduled runnable with that time attached ({@link FireTimeHandOff#run}), for the
 * {@code @ClusterSingleton} advice, which owns the firing, to take. Forwards the task's qualifier (so
 * Spring's scheduler router still picks the scheduler it names), long-lived flag and
 * {@code toString()}.
 *
 * @param task            Spring's scheduled runnable of the method
 * @param job             the guarded method
 * @param nominalFireTime the fire time of the firing being run, read once when it runs (for a
 *                        recurring schedule, claimed from its trigger)
 * @param fireTimeHandOff carries the fire time to the advice
 */
record GuardedFiring(Runnable task, GuardedJob job, Supplier<Instant> nominalFireTime, FireTimeHandOff fireTimeHandOff)
        implements SchedulingAwareRunnable {

    @Override
    public void run() {
        fireTimeHandOff.run(job, nominalFireTime.get(), task);
    }

    @Override
    public boolean isLongLived() {
        return task instanceof SchedulingAwareRunnable s ? s.isLongLived() : SchedulingAwareRunnable.super.isLongLived();
    }

    @Override
    public String getQualifier() {
        return task instanceof SchedulingAwareRunnable s ? s.getQualifier() : null;
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
