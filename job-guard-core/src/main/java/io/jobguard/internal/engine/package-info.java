/**
 * The engine behind {@link io.jobguard.JobGuard}, not exported: {@link io.jobguard.internal.engine.JobGuardEngine}
 * admits a firing through the lease store, runs its body with a {@link io.jobguard.internal.engine.EnginePermit} that
 * owns the lease's keep-alive and release, and records exactly one outcome per firing. Around it: the recovery of
 * missed fire times and dead runs ({@link io.jobguard.internal.engine.MissedFireTimeRecovery}, one recovery owner per job
 * and node), waiting for releases, rate-limited warnings, and the hand-over of leases at shutdown.
 */
package io.jobguard.internal.engine;
