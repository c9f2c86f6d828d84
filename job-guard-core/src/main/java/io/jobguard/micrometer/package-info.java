/**
 * Micrometer meters: {@link io.jobguard.micrometer.JobGuardMetrics} for the outcomes of firings,
 * {@link io.jobguard.micrometer.BatchLockMetrics} for batch locks, each bound to one registry once. The names and
 * tags in {@link io.jobguard.micrometer.MetricNames} are a contract and carry no high-cardinality value (never a fire
 * time, a token or a business key). Each binder holds the one registry it is bound to in a package-private
 * {@code BoundRegistry}, which refuses a second binding (that would count every event twice).
 */
package io.jobguard.micrometer;
