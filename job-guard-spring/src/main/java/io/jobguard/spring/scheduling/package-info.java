/**
 * Captures the nominal fire time of every {@code @Scheduled} firing of a guarded method by
 * decorating the registrar's {@code TaskScheduler} and driving its triggers.
 */
package io.jobguard.spring.scheduling;
