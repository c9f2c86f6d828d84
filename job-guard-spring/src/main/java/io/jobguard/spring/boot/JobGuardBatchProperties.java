package io.jobguard.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/**
 * {@code jobguard.batch.*}: settings of the auto-configured batch locks, immutable once bound and checked
 * by {@link JobGuardPropertiesValidator} at startup. Defaults are those of {@code BatchLockConfig.defaults()}.
 *
 * @param enabled          Whether a BatchLocks bean and the @BatchLocked advisor are auto-configured.
 * @param chunkSize        Keys per Lua script call; bounds how long one call blocks Redis.
 * @param maxKeys          Most keys in one batch; larger batches are rejected before anything is sent.
 * @param spread           Spread each batch namespace over 16 slot-range buckets (all called at once) instead of one
 *                         hash tag; unset: spread on a Redis Cluster with several masters, one hash tag otherwise.
 * @param waitPollInterval WAIT re-tries at least this often even without a release notification.
 * @param namespaces       Batch namespaces the actuator endpoint lists from startup (namespaces this node uses are
 *                         added as it uses them).
 * @param maxKeyLength     Longest business key, in characters.
 * @param keepAlive        Whether leases from BatchLocks.tryAcquire/acquire are renewed while held (@BatchLocked sets
 *                         its own).
 * @param defaultLease     Lease of @BatchLocked methods that set none.
 * @param defaultWaitFor   How long a WAIT @BatchLocked method waits when it sets no waitFor. Defaults to its lease.
 */
@ConfigurationProperties("jobguard.batch")
public record JobGuardBatchProperties(@DefaultValue("true") boolean enabled,
                                      @DefaultValue("1000") int chunkSize,
                                      @DefaultValue("100000") int maxKeys,
                                      Boolean spread,
                                      @DefaultValue("500ms") Duration waitPollInterval,
                                      List<String> namespaces,
                                      @DefaultValue("512") int maxKeyLength,
                                      @DefaultValue("false") boolean keepAlive,
                                      @DefaultValue("5m") Duration defaultLease,
                                      Duration defaultWaitFor) implements ValidatedOnBinding {

    /** Copies the namespaces so the bound value cannot change later; none when unset. */
    public JobGuardBatchProperties {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    }
}
