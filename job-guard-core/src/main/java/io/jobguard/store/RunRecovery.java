package io.jobguard.store;

import java.util.Optional;

/**
 * Optional store capability: the job's run record and the acquires that read it. With it, missed fire times and dead
 * runs are recovered (catch-up, declared missed, retried or reported abandoned) and a regular firing is checked
 * against the fire times before it. A store offers it only when the check of the record and the write of the lease
 * happen in the same atomic step as {@link LeaseStore#acquireRun(RunLeaseRequest)}; asked through
 * {@link LeaseStore#capability(Class)}. Without it the engine acquires regular firings without checks and recovers
 * nothing: a recovery attempt finds {@link AcquireResult.Status#SUPERSEDED}.
 */
public interface RunRecovery {

    /**
     * Like {@link LeaseStore#acquireRun(RunLeaseRequest)}, with the recovery checks or the recovery kind of
     * {@code mode} (gap check, delivery check, catch-up, miss declaration, dead-run retry) in the same single step.
     *
     * @param request the attempt
     * @param mode    what the attempt is for
     * @return what happened
     */
    AcquireResult acquireRun(RunLeaseRequest request, AcquireMode mode);

    /**
     * The job's run record, which the recovery of missed fire times and dead runs reads.
     *
     * @param job the job
     * @return the record, or empty if the job has none
     */
    Optional<RunRecord> runRecord(JobId job);
}
