package io.jobguard.spring.boot;

/** Settings of Spring transactions inside guarded runs, bound from {@code jobguard.transactions.*}. */
public class JobGuardTransactionProperties {

    /**
     * Whether a transaction begun inside a guarded run checks the run's lease just before it commits, and
     * rolls back with LeaseLostException when the lease is gone. On by default.
     */
    private boolean checkLease = true;

    /**
     * Returns whether commits check the lease.
     *
     * @return whether commits check the lease
     */
    public boolean isCheckLease() {
        return checkLease;
    }

    /**
     * Sets whether commits check the lease.
     *
     * @param checkLease whether commits check the lease
     */
    public void setCheckLease(boolean checkLease) {
        this.checkLease = checkLease;
    }
}
