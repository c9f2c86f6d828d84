/**
 * Checks that watch a running fleet without changing what runs:
 * {@link io.jobguard.monitor.ScheduleAgreementMonitor} warns when the nodes of one namespace fire a guarded job on
 * different schedules (so that it would run more often than any one schedule says).
 */
package io.jobguard.monitor;
