package io.jobguard.internal.engine;

import io.jobguard.Admission;
import io.jobguard.RunOutcome;
import io.jobguard.StoreFailurePolicy;
import java.util.Objects;

/**
 * The engine's decision on one firing: either a {@link EnginePermit} to run the body, or the reason
 * the firing is skipped.
 */
final class EngineAdmission implements Admission {

    private final EnginePermit permit;
    private final RunOutcome refusal;
    private final io.jobguard.store.AcquireResult recovery;

    private EngineAdmission(EnginePermit permit, RunOutcome refusal, io.jobguard.store.AcquireResult recovery) {
        this.permit = permit;
        this.refusal = refusal;
        this.recovery = recovery;
    }

    static EngineAdmission granted(EnginePermit permit) {
        return new EngineAdmission(Objects.requireNonNull(permit), null, null);
    }

    /** A recovery answer of the store (catch up, run again, history lost): not a firing's outcome, handled by {@link MissedFireTimeRecovery}. */
    static EngineAdmission recovery(io.jobguard.store.AcquireResult found) {
        return new EngineAdmission(null, RunOutcome.BUSY, found);
    }

    /** This refusal with the store's answer, for {@link MissedFireTimeRecovery} (the fire times refused with it after a loss). */
    EngineAdmission withRecovery(io.jobguard.store.AcquireResult found) {
        return new EngineAdmission(permit, refusal, found);
    }

    /** The store's recovery answer, or null. */
    io.jobguard.store.AcquireResult recovery() {
        return recovery;
    }

    static EngineAdmission refused(RunOutcome refusal) {
        return new EngineAdmission(null, Objects.requireNonNull(refusal), null);
    }

    /**
     * Tells whether the body may run.
     *
     * @return {@code true} if this node holds the lease for the fire time (or runs unguarded under
     *         {@link StoreFailurePolicy#RUN})
     */
    public boolean granted() {
        return permit != null;
    }

    /**
     * Returns the permit; the caller must {@link EnginePermit#finish(Throwable) finish} it.
     *
     * @return the permit
     * @throws IllegalStateException if the firing was refused
     */
    public EnginePermit permit() {
        if (permit == null) {
            throw new IllegalStateException("firing was refused: " + refusal);
        }
        return permit;
    }

    /**
     * Returns why the firing is skipped.
     *
     * @return ALREADY_RAN, BUSY, WAIT_TIMEOUT or STORE_ERROR
     * @throws IllegalStateException if the firing was granted
     */
    public RunOutcome refusal() {
        if (refusal == null) {
            throw new IllegalStateException("firing was granted");
        }
        return refusal;
    }

    @Override
    public String toString() {
        return permit != null ? "EngineAdmission[granted " + permit.context().job() + "]" : "EngineAdmission[" + refusal + "]";
    }
}
