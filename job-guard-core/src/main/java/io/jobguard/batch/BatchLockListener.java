package io.jobguard.batch;

/**
 * Observes batch acquisitions and lost batch leases, for metrics and logs. Called on the thread
 * that acquired (or on the keep-alive thread for lost leases); must be quick and must not throw
 * (exceptions are logged and ignored).
 */
public interface BatchLockListener {

    /**
     * Called once per acquisition attempt, after it ended.
     *
     * @param event what happened
     */
    void onAcquisition(BatchLockEvent event);

    /**
     * Called once when a lease turns out to be lost (a renewal found keys gone) while not closed.
     *
     * @param lease the lost lease
     */
    void onLeaseLost(BatchLease lease);
}
