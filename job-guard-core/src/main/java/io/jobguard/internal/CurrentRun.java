package io.jobguard.internal;

import io.jobguard.RunContext;

/**
 * The run context bound to the thread that runs a guarded job.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class CurrentRun {

    private static final ThreadLocal<RunContext> CURRENT = new ThreadLocal<>();

    private CurrentRun() {
    }

    /**
     * Returns the bound context.
     *
     * @return the context bound to this thread, or null
     */
    public static RunContext get() {
        return CURRENT.get();
    }

    /**
     * Binds a context to this thread.
     *
     * @param context the context, or null to unbind
     */
    public static void set(RunContext context) {
        if (context == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(context);
        }
    }
}
