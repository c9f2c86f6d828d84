package io.jobguard.spring.scheduling;

import io.jobguard.spring.aop.GuardedFirings;
import io.jobguard.spring.internal.GuardedJob;
import org.springframework.scheduling.SchedulingAwareRunnable;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * One firing of a guarded {@code @Scheduled} method, carrying its nominal fire time: running it
 * hands the job, that time and Spring's scheduled runnable to {@link GuardedFirings#fire}, which
 * admits the fire time and runs the method under the permit. Forwards the task's qualifier (so
 * Spring's scheduler router still picks the scheduler it names), long-lived flag and
 * {@code toString()}.
 *
 * @param task            Spring's scheduled runnable of the method
 * @param job             the guarded method
 * @param nominalFireTime the fire time of the firing being run, read once when it runs (for a
 *                        recurring schedule, claimed from its trigger)
 * @param firings         runs the firing under the guard
 */
record GuardedFiring(Runnable task, GuardedJob job, Supplier<Instant> nominalFireTime, GuardedFirings firings)
        implements SchedulingAwareRunnable {

    @Override
    public void run() {
        firings.fire(job, nominalFireTime.get(), task);
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
