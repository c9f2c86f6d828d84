package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;

import java.time.Duration;
import java.util.Objects;

/**
 * The lease and wait of {@link BatchLocked} methods that set none. The advisor of {@link BatchLockingConfiguration}
 * uses the context's bean of this type, or {@link #standard()} when there is none; the Spring Boot auto-configuration
 * defines it from {@code jobguard.batch.default-lease} and {@code jobguard.batch.default-wait-for}.
 *
 * @param lease   the lease of methods without a {@code lease} attribute
 * @param waitFor how long a {@code WAIT} method without a {@code waitFor} attribute waits; {@code null}: its lease
 */
public record BatchLockedDefaults(Duration lease, Duration waitFor) {

    /**
     * Checks the lease is given.
     *
     * @throws NullPointerException when {@code lease} is null
     */
    public BatchLockedDefaults {
        Objects.requireNonNull(lease, "lease");
    }

    /**
     * The defaults without configuration: a lease of {@link BatchLockingConfiguration#DEFAULT_LEASE}, and a
     * {@code WAIT} method waits as long as its lease.
     *
     * @return the standard defaults
     */
    public static BatchLockedDefaults standard() {
        return new BatchLockedDefaults(BatchLockingConfiguration.DEFAULT_LEASE, null);
    }
}
