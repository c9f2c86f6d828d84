package io.jobguard.spring.boot;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the actuator endpoint {@code jobguard}, bound from {@code jobguard.actuator.*}; immutable once
 * bound. Every write is off unless set.
 *
 * @param forceReleaseEnabled Whether DELETE /actuator/jobguard/{job} may force-release a stuck run lease. Off by
 *                            default.
 * @param writeEnabled        Whether POST /actuator/jobguard/{job} may pause, resume or run a job now, or retry its
 *                            failed fire time. Off by default.
 * @param writeRole           The role a caller needs for the endpoint's writes (pause, resume, run-now, retry,
 *                            force-release); none by default.
 * @param unhealthyStatus     The health status of the jobguard indicator when the store is unreachable or the clock
 *                            skew exceeds the tolerance: UNKNOWN (default) keeps the application in service, DOWN or
 *                            OUT_OF_SERVICE takes it out.
 * @param dashboardEnabled    Whether the dashboard page is served at
 *                            {@code <actuator base path>/jobguard/dashboard/index.html} (web applications only; it reads
 *                            the jobguard endpoint and is protected like it). Off by default.
 */
public record JobGuardActuatorProperties(@DefaultValue("false") boolean forceReleaseEnabled,
                                         @DefaultValue("false") boolean writeEnabled,
                                         String writeRole,
                                         @DefaultValue("UNKNOWN") String unhealthyStatus,
                                         @DefaultValue("false") boolean dashboardEnabled) {
}
