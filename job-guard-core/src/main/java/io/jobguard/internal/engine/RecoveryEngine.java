package io.jobguard.internal.engine;

import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.store.AcquireMode;

import java.time.Instant;

/**
 * What {@link MissedFireTimeRecovery} asks of its engine: the node's configuration and store, an admission for one kind of
 * attempt, and the report of an outcome it decided. {@link JobGuardEngine} is the one implementation; recovery
 * holds nothing else of it.
 */
interface RecoveryEngine {

    /**
     * Returns the engine's configuration (node id, namespace, clock, skew tolerance).
     *
     * @return the configuration
     */
    JobGuardConfig config();

    /**
     * Returns the store the engine admits firings through, with its optional capabilities.
     *
     * @return the store's capabilities
     */
    StoreCapabilities capabilities();

    /**
     * Admits one fire time of a job for one kind of attempt, with its recovery checks.
     *
     * @param job the job
     * @param nominalFireTime the fire time
     * @param mode the kind of attempt: regular, catch-up, retry or miss
     * @return a permit, a refusal or a recovery answer
     */
    EngineAdmission admit(JobOptions job, Instant nominalFireTime, AcquireMode mode);

    /**
     * The earliest fire time of the job that some node may still take over (the fleet spread): due, not missed.
     *
     * @param job the job
     * @return the fire time, or null when the job is not spread
     */
    default Instant dueFrom(JobOptions job) {
        return null;
    }

    /**
     * Records that the store answered an ask for the job's fire time that the fleet spread may have left to another
     * node: it is decided.
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param settlesEarlier  whether the answer shows every earlier fire time handled (a grant, or taken already)
     */
    default void decided(JobOptions job, Instant nominalFireTime, boolean settlesEarlier) {
    }

    /**
     * Reports an outcome of recovery (missed, abandoned, history lost, busy) to the listeners and the store.
     *
     * @param job the job
     * @param nominalFireTime the fire time the outcome is for
     * @param outcome the outcome
     */
    default void report(JobOptions job, Instant nominalFireTime, RunOutcome outcome) {
        report(job, nominalFireTime, outcome, false);
    }

    /**
     * Reports an outcome of recovery to the listeners and, unless {@code recorded}, to the store.
     *
     * @param job the job
     * @param nominalFireTime the fire time the outcome is for
     * @param outcome the outcome
     * @param recorded whether the store already keeps it in the job's recent fire times (the declaring call of a
     *                 catch-up or a miss wrote it: {@link io.jobguard.store.AcquireMode#declaredMissed()})
     */
    void report(JobOptions job, Instant nominalFireTime, RunOutcome outcome, boolean recorded);
}
