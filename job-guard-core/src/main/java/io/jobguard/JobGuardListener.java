package io.jobguard;

/**
 * Observes guarded firings, for metrics, events and tests. Callbacks run on the thread that
 * caused them and must be quick; an exception thrown by a listener is logged and ignored, it never
 * changes a firing's outcome.
 */
public interface JobGuardListener {

    /**
     * Called once per firing when its outcome is final (after the body ran, or when it was skipped).
     *
     * @param event what happened
     */
    void onJobEvent(JobEvent event);

    /**
     * Called when a running job's lease could not be renewed: its exclusivity is gone.
     *
     * @param context the run that lost its lease
     */
    default void onLeaseLost(RunContext context) {
        // most listeners only count outcomes
    }
}
