/**
 * Gives every {@code @Scheduled} firing of a guarded method its nominal fire time: decorates the
 * registrar's {@code TaskScheduler}, lets the scheduler reschedule the method under a trigger that
 * names each time, and hands each firing, with its time, to the guard.
 */
package io.jobguard.spring.scheduling;
