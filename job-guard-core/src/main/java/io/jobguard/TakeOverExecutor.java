package io.jobguard;

/**
 * Where a fire time runs that this node takes over from the job's assigned node in the fleet spread
 * ({@link JobGuard#declareScheduledJobs(java.util.Collection, TakeOverExecutor)}). The firing handed to
 * {@link #execute} asks the store, as a regular firing does, and runs the job's body when granted. An adapter hands it
 * to the scheduler that fires the job, so a run taken over runs on the same threads as the job's regular runs (a
 * virtual-thread scheduler's, a pool's). job-guard waits for one take-over of a job to end before it starts the
 * next, so a job's fire times are taken over in order.
 */
@FunctionalInterface
public interface TakeOverExecutor {

    /** Runs the firing on job-guard's own take-over thread ({@code job-guard-spread-take-over}). */
    TakeOverExecutor OWN_THREAD = (job, firing) -> firing.run();

    /**
     * Runs the firing, now or soon. An executor that throws (it is shut down) makes job-guard run the firing on its own
     * take-over thread instead.
     *
     * @param job    the job's name
     * @param firing the firing: asks the store and runs the body when granted; it never throws
     */
    void execute(String job, Runnable firing);
}
