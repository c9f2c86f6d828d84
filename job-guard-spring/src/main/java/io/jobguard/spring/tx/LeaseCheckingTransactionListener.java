package io.jobguard.spring.tx;

import io.jobguard.LeaseLostException;
import io.jobguard.RunContext;
import org.springframework.core.Ordered;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Lets a transaction commit only while the guarded run that began it still holds its lease.
 *
 * <p>Added to a transaction manager ({@link ConfigurableTransactionManager#addListener}; Boot applications get
 * it on every such manager bean unless {@code jobguard.transactions.check-lease=false}), it registers, for each
 * new transaction begun on a thread that runs a guarded job, a {@link TransactionSynchronization} whose
 * {@code beforeCommit} calls {@link RunContext#checkLease()}. When the lease is lost (its deadline passed, the
 * store took it back, or it is being given up at shutdown) the commit fails with {@link LeaseLostException} and
 * the transaction rolls back: {@code @Transactional} methods and {@code TransactionTemplate} alike.
 *
 * <p>This narrows the window for a stale writer to the commit itself; it cannot close it (a pause between the
 * check and the commit can still outlast the lease). Fenced writes ({@code JdbcFence}) close it. Transactions
 * that a run joins but did not begin, and transactions outside guarded runs, are not touched.
 */
public final class LeaseCheckingTransactionListener implements TransactionExecutionListener {

    /** Creates the listener. */
    public LeaseCheckingTransactionListener() {
    }

    /**
     * Adds this listener to a transaction manager unless it has one already.
     *
     * @param manager the transaction manager
     */
    public void addTo(ConfigurableTransactionManager manager) {
        for (TransactionExecutionListener existing : manager.getTransactionExecutionListeners()) {
            if (existing instanceof LeaseCheckingTransactionListener) {
                return;
            }
        }
        manager.addListener(this);
    }

    @Override
    public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
        if (beginFailure != null || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        RunContext.current().filter(RunContext::isGuarded).ifPresent(run ->
                TransactionSynchronizationManager.registerSynchronization(new LeaseCheck(run)));
    }

    /** Checks the lease of one run before one commit. */
    private static final class LeaseCheck implements TransactionSynchronization {

        private final RunContext run;

        LeaseCheck(RunContext run) {
            this.run = run;
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            if (run.isLeaseLost()) {
                throw LeaseLostException.of(run, "commit");
            }
        }

        @Override
        public int getOrder() {
            // last before the commit, so the check is as late as possible
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
