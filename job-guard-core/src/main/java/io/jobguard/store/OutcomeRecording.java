package io.jobguard.store;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;

/**
 * Optional store capability: every fire time's outcome is recorded on the job's history, so that
 * {@link RunHistory#fireHistory} shows how each ended. A run's outcome is recorded with its release in one call, and a
 * fire time decided without a run ({@code MISSED}, {@code ABANDONED}, {@code PAUSED}, {@code HISTORY_LOST}) once. Asked through
 * {@link LeaseStore#capability(Class)}. Without it the engine releases with {@link LeaseStore#releaseRun} and the
 * history shows no outcomes or durations.
 */
public interface OutcomeRecording {

    /**
     * Releases the run lease like {@link LeaseStore#releaseRun}, and records the run's outcome and duration on the
     * fire time's history entry in the same call, without waiting for the reply on the caller's thread. This node's
     * next acquire of the job must execute after the release (e.g. it is written to the same ordered connection before
     * this method returns, or that acquire waits for a release still in flight).
     *
     * @param request  the attempt that acquired the lease
     * @param cooldown gap during which no run starts after this one (zero for none)
     * @param end      how the run ended: its outcome, duration and attempt, and when its retry is due
     * @return completes with whether the lease was released, or exceptionally with the failure
     */
    CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest request, Duration cooldown, RunEnd end);

    /**
     * Records a fire time decided without a run on the job's history, unless the same outcome is already recorded for
     * that fire time (every node that refuses a paused fire time reports it; one entry is kept).
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param nodeId          the node that decided
     * @param outcome         the outcome (e.g. {@code MISSED})
     * @param historySize     how many entries the job keeps
     */
    void recordOutcome(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize);
}
