package io.jobguard.internal.engine;


import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One recovery owner per job on one node: the per-job locks of an engine's one {@link MissedFireTimeRecovery} that
 * the scheduler thread's catch-up before a regular firing ({@link MissedFireTimeRecovery#admit}), the start-up pass and
 * the background pass ({@link MissedFireTimeRecovery#recover}) hold while they read and act on the job's run record.
 * So on one node a job's missed fire times are worked out and handled by one thread at a time, and a firing waits for its own node's catch-up instead of meeting that catch-up's lease
 * and giving its fire time up as {@code BUSY}. Reentrant: a recovery body that fires the same job again on its own
 * thread does not block itself. Thread-safe.
 */
final class RecoveryOwners {

    private final ConcurrentMap<String, ReentrantLock> byJob = new ConcurrentHashMap<>();

    /**
     * The owner lock of a job on this engine.
     *
     * @param job the job name
     * @return the job's lock, the same instance on every call
     */
    ReentrantLock of(String job) {
        return byJob.computeIfAbsent(job, j -> new ReentrantLock());
    }
}
