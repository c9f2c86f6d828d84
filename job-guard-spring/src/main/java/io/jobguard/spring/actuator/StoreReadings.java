package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;

import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the endpoint and the health indicator read from the store besides leases, in one place so both
 * show the same: the clock skew and the recovery from a data loss.
 */
final class StoreReadings {

    private StoreReadings() {
    }

    /** This node's clock minus the store's, or null when the store cannot be reached. */
    static String skew(JobGuard guard) {
        try {
            return guard.measureClockSkew().toString();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The jobs whose fire times are still refused after the store lost its data, with the end of each refusal,
     * and the latest end; null when none is (or the store cannot lose its data that way).
     */
    static JobGuardEndpoint.DataLoss dataLoss(JobGuard guard) {
        if (!(guard.store() instanceof RedisLeaseStore redis)) {
            return null;
        }
        Map<JobId, Instant> recovering = redis.recoveringFromDataLoss();
        Map<String, Instant> jobs = new TreeMap<>();
        recovering.forEach((job, until) -> jobs.merge(job.name(), until, (x, y) -> x.isAfter(y) ? x : y));
        return jobs.values().stream().max(Comparator.naturalOrder())
                .map(until -> new JobGuardEndpoint.DataLoss(until, Collections.unmodifiableMap(jobs))).orElse(null);
    }
}
