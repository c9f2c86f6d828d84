/**
 * Spring transactions inside guarded runs: commit only under a live lease
 * ({@link io.jobguard.spring.tx.LeaseCheckingTransactionListener}).
 */
package io.jobguard.spring.tx;
