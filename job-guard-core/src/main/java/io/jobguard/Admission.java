package io.jobguard;

import java.util.Objects;

/**
 * The engine's decision on one firing: either a {@link JobPermit} to run the body, or the reason
 * the firing is skipped.
 */
public final class Admission {

    private final JobPermit permit;
    private final RunOutcome refusal;
    private final io.jobguard.store.AcquireResult recovery;

    private Admission(JobPermit permit, RunOutcome refusal, io.jobguard.store.AcquireResult recovery) {
        this.permit = permit;
        this.refusal = refusal;
        this.recovery = recovery;
    }

    static Admission granted(JobPermit permit) {
        return new Admission(Objects.requireNonNull(permit), null, null);
    }

    /** A recovery answer of the store (catch up, run again, history lost): not a firing's outcome, handled by {@link MissedFireTimes}. */
    static Admission recovery(io.jobguard.store.AcquireResult found) {
        return new Admission(null, RunOutcome.BUSY, found);
    }

    /** This refusal with the store's answer, for {@link MissedFireTimes} (the fire times refused with it after a loss). */
    Admission withRecovery(io.jobguard.store.AcquireResult found) {
        return new Admission(permit, refusal, found);
    }

    /** The store's recovery answer, or null. */
    io.jobguard.store.AcquireResult recovery() {
        return recovery;
    }

    static Admission refused(RunOutcome refusal) {
        return new Admission(null, Objects.requireNonNull(refusal), null);
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
     * Returns the permit; the caller must {@link JobPermit#finish(Throwable) finish} it.
     *
     * @return the permit
     * @throws IllegalStateException if the firing was refused
     */
    public JobPermit permit() {
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
        return permit != null ? "Admission[granted " + permit.context().job() + "]" : "Admission[" + refusal + "]";
    }
}
