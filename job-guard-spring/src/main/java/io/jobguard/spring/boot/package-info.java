/**
 * Spring Boot auto-configuration of job-guard: the {@code jobguard.*} properties, the engine and
 * its Redis store, per-job overrides, Micrometer meters and the periodic clock-skew check.
 */
package io.jobguard.spring.boot;
