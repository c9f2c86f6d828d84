package io.jobguard;

import java.util.Objects;

/**
 * What {@link JobGuard#fire} returns: either the value of a body that started (the firing may still be
 * running, for a body that ends later), or why the fire time was not run here. Immutable.
 *
 * @param <R> the body's value
 */
public final class Fired<R> {

    private final RunOutcome refusal;
    private final R value;

    private Fired(RunOutcome refusal, R value) {
        this.refusal = refusal;
        this.value = value;
    }

    /**
     * A firing whose body started.
     *
     * @param value what the body returned
     * @param <R>   the body's value
     * @return the result
     */
    public static <R> Fired<R> started(R value) {
        return new Fired<>(null, value);
    }

    /**
     * A fire time not run here.
     *
     * @param refusal why
     * @param <R>     the body's value
     * @return the result
     * @throws NullPointerException if {@code refusal} is null
     */
    public static <R> Fired<R> refused(RunOutcome refusal) {
        return new Fired<>(Objects.requireNonNull(refusal, "refusal"), null);
    }

    /**
     * Tells whether the body started here.
     *
     * @return {@code true} if the fire time was admitted and the body started
     */
    public boolean started() {
        return refusal == null;
    }

    /**
     * Returns what the body returned when it started.
     *
     * @return the value (null for a refused firing)
     */
    public R value() {
        return value;
    }

    /**
     * Returns why the fire time was not run here.
     *
     * @return the refusal (ALREADY_RAN, BUSY, WAIT_TIMEOUT, STORE_ERROR, PAUSED, HISTORY_LOST)
     * @throws IllegalStateException if the body started
     */
    public RunOutcome refusal() {
        if (refusal == null) {
            throw new IllegalStateException("the firing's body started");
        }
        return refusal;
    }

    @Override
    public String toString() {
        return refusal == null ? "Fired[started]" : "Fired[" + refusal + "]";
    }
}
