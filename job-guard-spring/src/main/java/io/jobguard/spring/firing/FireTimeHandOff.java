package io.jobguard.spring.firing;


import java.time.Instant;
import java.util.Objects;

/**
 * The hand-off of scheduled firings' nominal fire times from job-guard's scheduler decorator to
 * the {@code @ClusterSingleton} advice: the decorator attaches a firing's fire time to the thread while
 * Spring's scheduled runnable runs ({@link #run}); the advice takes it, once, when the runnable reaches
 * the guarded method, and owns the firing from there (admission, run, finish and outcome, in one
 * {@code JobGuard.fire}). Only the fire time crosses: no permit, no decision. A runnable that never
 * reaches the method leaves its fire time untaken, and the fire time is dropped when the runnable
 * returns. Thread-safe; one instance per application context.
 */
final class FireTimeHandOff {

    /** The fire time attached on each thread, until the advice takes it or the runnable returns. */
    private final ThreadLocal<Attached> attached = new ThreadLocal<>();

    FireTimeHandOff() {
    }

    /**
     * Runs Spring's scheduled runnable of a guarded method with the firing's nominal fire time
     * attached to this thread.
     *
     * @param job             the guarded method
     * @param nominalFireTime the nominal fire time the trigger designated
     * @param task            Spring's scheduled runnable of the method
     */
    void run(GuardedJob job, Instant nominalFireTime, Runnable task) {
        Attached outer = attached.get();
        attached.set(new Attached(Objects.requireNonNull(job, "job"), Objects.requireNonNull(nominalFireTime, "nominalFireTime")));
        try {
            task.run();
        } finally {
            if (outer == null) {
                attached.remove();
            } else {
                attached.set(outer);
            }
        }
    }

    /**
     * Takes the fire time attached to this thread for {@code job}, once.
     *
     * @return the fire time, or null when this thread runs no scheduled firing of the job that is not taken yet
     */
    Instant take(GuardedJob job) {
        Attached firing = attached.get();
        if (firing == null || firing.job() != job) {
            return null;
        }
        attached.remove();
        return firing.nominalFireTime();
    }

    private record Attached(GuardedJob job, Instant nominalFireTime) {
    }
}
