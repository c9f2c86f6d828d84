package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the {@code jobguard} health indicator reports, apart from Spring Boot's health types: whether this node can
 * reach the lease store and whether its clock is within the skew tolerance of the store's clock. The reading also
 * gives the round trip of the check. Each check is one store call ({@code TIME} on Redis). Each Boot line's indicator turns a
 * {@link Reading} into its own {@code Health}, so both lines report the same details.
 *
 * <p>After Redis lost its data, while fire times of a job are still refused ({@code HISTORY_LOST}), the details say
 * {@code "dataLoss": "recovering from a data loss until <T>"} (the latest end over the jobs) and list the jobs in
 * {@code recovering}; the reading stays healthy: the node works, the refusal is by design.
 */
public final class JobGuardHealthCheck {

    private final JobGuard guard;

    /**
     * Creates the check.
     *
     * @param guard the engine
     */
    public JobGuardHealthCheck(JobGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /**
     * One reading: one store call.
     *
     * @return healthy or not, with the details in the order they are shown
     */
    public Reading check() {
        Duration tolerance = guard.config().skewTolerance();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("node", guard.config().nodeId());
        details.put("namespace", guard.config().namespace());
        details.put("skewTolerance", tolerance.toString());
        long started = System.nanoTime();
        Duration skew;
        try {
            skew = guard.measureClockSkew();
        } catch (RuntimeException e) {
            details.put("store", "unreachable");
            details.put("error", String.valueOf(e.getMessage()));
            return new Reading(false, details);
        }
        Duration roundTrip = Duration.ofNanos(System.nanoTime() - started);
        details.put("store", "reachable");
        details.put("roundTrip", roundTrip.toString());
        details.put("clockSkew", skew.toString());
        JobGuardEndpoint.DataLoss loss = StoreReadings.dataLoss(guard);
        if (loss != null) {
            details.put("dataLoss", "recovering from a data loss until " + loss.recoveringUntil());
            details.put("recovering", loss.jobs());
        }
        if (skew.abs().compareTo(tolerance) > 0) {
            details.put("problem", "clock skew " + skew + " exceeds the tolerance " + tolerance
                    + " (jobguard.skew-tolerance): fire times may be decided on a wrong clock");
            return new Reading(false, details);
        }
        return new Reading(true, details);
    }

    /**
     * The status code an unhealthy reading is reported with, checked once at startup.
     *
     * @param configured {@code jobguard.actuator.unhealthy-status}
     * @return the code, upper case
     * @throws IllegalArgumentException if it is blank or {@code UP}
     */
    public static String unhealthyStatusCode(String configured) {
        String status = configured == null ? "" : configured.trim().toUpperCase(Locale.ROOT);
        if (status.isEmpty() || status.equals("UP")) {
            throw new IllegalArgumentException("jobguard.actuator.unhealthy-status must name a status other than UP "
                    + "(UNKNOWN, DOWN, OUT_OF_SERVICE, ...), got '" + status + "'");
        }
        return status;
    }

    /**
     * One reading of the check.
     *
     * @param healthy whether the store was reachable and the skew within the tolerance
     * @param details what the indicator shows, in order (unmodifiable)
     */
    public record Reading(boolean healthy, Map<String, Object> details) {

        /**
         * Keeps an unmodifiable copy of the details, in their order.
         *
         * @param healthy whether the store was reachable and the skew within the tolerance
         * @param details what the indicator shows
         */
        public Reading {
            details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
        }
    }
}
