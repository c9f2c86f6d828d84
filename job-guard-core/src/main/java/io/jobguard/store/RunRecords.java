package io.jobguard.store;

import java.util.Optional;

/**
 * Optional store capability: the run record of a job, which the recovery of missed fire times
 * and dead runs reads (the engine's recovery of missed fire times). A store without it recovers nothing: its
 * {@link LeaseStore#acquireRun(RunLeaseRequest, AcquireMode)} refuses recovery attempts as superseded.
 * Asked through {@link LeaseStore#capability(Class)}.
 */
public interface RunRecords {

    /**
     * The job's run record.
     *
     * @param job the job
     * @return the record, or empty if the job has none yet
     */
    Optional<RunRecord> runRecord(JobId job);
}
