package io.jobguard;

/**
 * What the caller of one {@link JobGuard#fire} hears of its firing: when its run starts, and, exactly
 * once, how the firing ended (the refusal of a fire time not run here, or the run's outcome).
 * Called on the thread that ends the firing; must not throw.
 */
@FunctionalInterface
public interface FiringObserver {

    /** An observer that hears nothing. */
    FiringObserver NONE = (outcome, failure) -> {
    };

    /**
     * The fire time was admitted: the body starts now, on this thread.
     *
     * @param run the run's context
     */
    default void started(RunContext run) {
        // most callers only need the outcome
    }

    /**
     * The firing ended; called once per firing.
     *
     * @param outcome why the fire time was not run here, or how its run ended
     * @param failure what the work threw, or null
     */
    void ended(RunOutcome outcome, Throwable failure);
}
