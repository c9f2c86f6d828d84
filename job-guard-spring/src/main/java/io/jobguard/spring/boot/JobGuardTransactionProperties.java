package io.jobguard.spring.boot;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of Spring transactions inside guarded runs, bound from {@code jobguard.transactions.*}; immutable once
 * bound.
 *
 * @param checkLease Whether a transaction begun inside a guarded run checks the run's lease just before it commits,
 *                   and rolls back with LeaseLostException when the lease is gone. On by default.
 */
public record JobGuardTransactionProperties(@DefaultValue("true") boolean checkLease) {
}
