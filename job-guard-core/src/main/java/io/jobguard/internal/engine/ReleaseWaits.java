package io.jobguard.internal.engine;

import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.ReleaseWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * How a firing that meets a busy lease waits for its release: through the store's
 * {@link LeaseStore#watchRunReleases} notifications when it has them, otherwise (the default watch) by polling
 * every {@link JobGuardConfig#waitPollInterval()} (a missed or absent signal costs at most one poll interval),
 * and never past the blocking lease's own expiry.
 */
final class ReleaseWaits {

    private static final Logger log = LoggerFactory.getLogger(ReleaseWaits.class);

    private final LeaseStore store;
    private final JobGuardConfig config;

    ReleaseWaits(LeaseStore store, JobGuardConfig config) {
        this.store = store;
        this.config = config;
    }

    /** The release watch of a WAIT firing; a store failure propagates (the firing is then STORE_ERROR). */
    ReleaseWatch watch(JobId id) {
        return store.watchRunReleases(id);
    }

    /** The release watch of a RETURN firing's grace, or null if it cannot be opened (the firing is then BUSY). */
    ReleaseWatch watchForGrace(JobOptions job, JobId id) {
        try {
            return watch(id);
        } catch (RuntimeException e) {
            log.debug("job-guard: job '{}' node={} cannot watch releases ({}); busy grace skipped", job.name(),
                    config.nodeId(), e.toString());
            return null;
        }
    }

    /** How long the next wait may last: the time left, at most one poll interval, ending just after the blocker expires. */
    Duration pause(long remainingNanos, Duration retryAfter) {
        long nanos = Math.min(remainingNanos, config.waitPollInterval().toNanos());
        if (retryAfter != null) {
            // wake just after the blocking lease or cool-down would expire by itself
            nanos = Math.min(nanos, retryAfter.toNanos() + 2_000_000L);
        }
        return Duration.ofNanos(nanos);
    }
}
