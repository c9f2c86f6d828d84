/**
 * Spring transactions inside guarded runs: commit only under a live lease
 * ({@link io.jobguard.spring.tx.LeaseCheckingTransactionListener}), added to every transaction manager bean by
 * {@link io.jobguard.spring.tx.LeaseCheckingTransactionManagers}.
 */
package io.jobguard.spring.tx;
