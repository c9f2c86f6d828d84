package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code jobguard} health indicator: whether this node can reach the lease store (with the
 * round trip of the check) and whether its clock is within the skew tolerance of the store's
 * clock. Each check is one store call ({@code TIME} on Redis). Healthy is {@code UP}; unhealthy is
 * the configured status, by default {@code UNKNOWN}, which Boot ranks below {@code UP}, so job-guard
 * alone does not take the application out of service (a node that cannot reach Redis skips its
 * guarded firings, fail closed, and serves everything else). Set
 * {@code jobguard.actuator.unhealthy-status=DOWN} (or {@code OUT_OF_SERVICE}) to take it out.
 *
 * <p>After Redis lost its data, while fire times of a job are still refused ({@code HISTORY_LOST}), the details say
 * {@code "dataLoss": "recovering from a data loss until <T>"} (the latest end over the jobs) and list the jobs in
 * {@code recovering}; the status stays {@code UP}: the node works, the refusal is by design.
 */
public final class JobGuardHealthIndicator implements HealthIndicator {

    private final JobGuard guard;
    private final Status unhealthy;

    /**
     * Creates the indicator.
     *
     * @param guard     the engine
     * @param unhealthy the status to report when the store is unreachable or the skew is too large
     */
    public JobGuardHealthIndicator(JobGuard guard, Status unhealthy) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.unhealthy = Objects.requireNonNull(unhealthy, "unhealthy");
    }

    @Override
    public Health health() {
        Duration tolerance = guard.config().skewTolerance();
        Health.Builder health = Health.status(Status.UP)
                .withDetail("node", guard.config().nodeId())
                .withDetail("namespace", guard.config().namespace())
                .withDetail("skewTolerance", tolerance.toString());
        long started = System.nanoTime();
        Duration skew;
        try {
            skew = guard.measureClockSkew();
        } catch (RuntimeException e) {
            return health.status(unhealthy).withDetail("store", "unreachable")
                    .withDetail("error", String.valueOf(e.getMessage())).build();
        }
        Duration roundTrip = Duration.ofNanos(System.nanoTime() - started);
        health.withDetail("store", "reachable").withDetail("roundTrip", roundTrip.toString())
                .withDetail("clockSkew", skew.toString());
        JobGuardEndpoint.DataLoss loss = StoreReadings.dataLoss(guard);
        if (loss != null) {
            health.withDetail("dataLoss", "recovering from a data loss until " + loss.recoveringUntil())
                    .withDetail("recovering", loss.jobs());
        }
        if (skew.abs().compareTo(tolerance) > 0) {
            health.status(unhealthy).withDetail("problem", "clock skew " + skew + " exceeds the tolerance "
                    + tolerance + " (jobguard.skew-tolerance): fire times may be decided on a wrong clock");
        }
        return health.build();
    }
}
