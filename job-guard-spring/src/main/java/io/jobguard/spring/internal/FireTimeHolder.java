package io.jobguard.spring.internal;

import java.time.Instant;

/**
 * Hands the nominal fire time of one firing from the scheduler decorator to the
 * {@code @ClusterSingleton} advice on the same thread. Each firing carries its own instant (no
 * shared "last fire time"), and the advice takes it exactly once, so a guarded method called from
 * inside another firing never inherits that firing's fire time.
 *
 * <p>Internal to job-guard's Spring integration; not an API.
 */
public final class FireTimeHolder {

    private static final ThreadLocal<Firing> CURRENT = new ThreadLocal<>();

    private FireTimeHolder() {
    }

    /**
     * Runs a scheduled task with its firing bound to the current thread.
     *
     * @param runnableKey     what the scheduled runnable prints (identifies its method)
     * @param nominalFireTime the instant the trigger designated
     * @param task            the scheduled task
     */
    public static void runWith(String runnableKey, Instant nominalFireTime, Runnable task) {
        Firing previous = CURRENT.get();
        CURRENT.set(new Firing(runnableKey, nominalFireTime));
        try {
            task.run();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /**
     * Takes the current thread's firing if it belongs to the given method.
     *
     * @param runnableKey the method's runnable key
     * @return the fire time, or null when the method was not started by its schedule
     */
    public static Instant take(String runnableKey) {
        Firing firing = CURRENT.get();
        if (firing == null || !firing.runnableKey().equals(runnableKey)) {
            return null;
        }
        CURRENT.set(Firing.TAKEN);
        return firing.nominalFireTime();
    }

    private record Firing(String runnableKey, Instant nominalFireTime) {
        static final Firing TAKEN = new Firing("", Instant.EPOCH);
    }
}
