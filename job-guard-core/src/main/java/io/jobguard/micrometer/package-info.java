/**
 * Micrometer meters: {@link io.jobguard.micrometer.JobGuardMetrics} for the outcomes of firings,
 * {@link io.jobguard.micrometer.BatchLockMetrics} for batch locks, each bound to one registry once. The names and
 * tags in {@link io.jobguard.micrometer.MetricNames} are a contract and carry no high-cardinality value (never a fire
 * time, a token or a business key).
 */
package io.jobguard.micrometer;
