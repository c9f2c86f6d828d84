/**
 * Micrometer {@code Observation}s of job-guard's decisions: {@code jobguard.run} for every guarded
 * firing and {@code jobguard.batch} for every {@code @BatchLocked} acquisition. Each nests under the
 * observation current when it starts (Spring's {@code tasks.scheduled.execution} for a scheduled
 * method), so Boot's OpenTelemetry or Brave bridge turns them into child spans unchanged.
 * {@link io.jobguard.spring.observation.RunObservations} starts and stops {@code jobguard.run}, whose
 * {@link io.jobguard.spring.observation.RunObservationContext} knows the firing and whose
 * {@link io.jobguard.spring.observation.RunObservationConvention} names and tags it;
 * {@link io.jobguard.spring.observation.BatchObservationContext} and
 * {@link io.jobguard.spring.observation.BatchObservationConvention} do the same for {@code jobguard.batch}.
 */
package io.jobguard.spring.observation;
