/**
 * The engine behind {@link io.jobguard.JobGuard}, not exported: {@link io.jobguard.internal.engine.JobGuardEngine}
 * admits a firing through the lease store, runs its body with a {@link io.jobguard.internal.engine.EnginePermit} that
 * owns the lease's keep-alive and release, and records exactly one outcome per firing. Around it: the recovery of
 * missed fire times and dead runs ({@link io.jobguard.internal.engine.MissedFireTimeRecovery}, one recovery owner per job
 * and node), waiting for releases, rate-limited warnings, and the hand-over of leases at shutdown.
 *
 * <ul>
 *   <li>Admission and the run: {@code EngineAdmission} is the engine's decision on one firing (a permit, or why it is
 *       skipped); {@code EngineFiringEnd} ends a firing started by {@code JobGuard#fire}, the only way its permit is
 *       finished; {@code RunLifecycle} gives each permit the store, the keep-alive, the listeners and the book of live
 *       runs it drives its own lifecycle through; {@code StoreCapabilities} is the store with its optional
 *       capabilities looked up once, each falling back to what the engine does without it.</li>
 *   <li>Recovery: {@code RecoveryEngine} is what the recovery asks of its engine; {@code RecoveryOwners} holds the
 *       one per-job lock of the recovery on this node; {@code CatchUpWindow} walks a job's schedule within the
 *       catch-up window, in bounded steps; {@code DueFireTimes} finds the fire times a lagging live node has not
 *       fired yet, or some node may still take over under the fleet spread, which are due rather than missed;
 *       {@code SpreadFirings} leaves a regular firing to the job's assigned node ({@code io.jobguard.internal.spread})
 *       and tells the spread what the store answered; {@code RecoveryReports} tells the outcomes decided without a
 *       run ({@code MISSED}, {@code HISTORY_LOST}, {@code ABANDONED}) from the one node that decided them.</li>
 *   <li>Waiting and shutdown: {@code ReleaseWaits} waits for a busy lease's release by the store's notifications or
 *       by polling, never past the blocking lease's expiry; {@code LeaseHandOver} closes admission at shutdown,
 *       waits for the runs, then gives up the leases still held.</li>
 *   <li>Logs: {@code FiringWarnings} logs a WARN that would repeat on every firing once per job per minute with a
 *       count; {@code HistoryLossLog} logs {@code HISTORY_LOST} at WARN once per job and loss.</li>
 *   <li>Operators: {@code OperatorActions} pauses, resumes, reads the live lease and recent fires, force-releases and
 *       retries a failed fire time by hand, each through the store's optional capability; {@code HistoryLimits} is a job's history size and retention,
 *       its own or the engine's defaults; {@code HistoryExportStream} is an export read page by page.</li>
 * </ul>
 */
package io.jobguard.internal.engine;
