/**
 * Micrometer {@code Observation}s of job-guard's decisions: {@code jobguard.run} for every guarded
 * firing and {@code jobguard.batch} for every {@code @BatchLocked} acquisition. Each nests under the
 * observation current when it starts (Spring's {@code tasks.scheduled.execution} for a scheduled
 * method), so Boot's OpenTelemetry or Brave bridge turns them into child spans unchanged.
 */
package io.jobguard.spring.observation;
