package io.jobguard.quartz;

import io.jobguard.JobPermit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The permits a {@link ClusterSingletonListener} holds, by Quartz fire instance, from the veto that took
 * one to the callback that ends the firing. Every permit is finished exactly once; one whose callbacks
 * Quartz never delivered is finished when its worker thread starts another firing, so a lost callback
 * blocks the job for no longer than that.
 */
final class FirePermits {

    private static final Logger log = LoggerFactory.getLogger(FirePermits.class);

    private final String nodeId;
    private final AtomicLong errors;
    private final Map<String, JobPermit> permits = new ConcurrentHashMap<>();
    /** The fire instance whose permit the current worker thread holds, to clean up after a lost callback. */
    private final ThreadLocal<String> heldOnThread = new ThreadLocal<>();

    /**
     * @param nodeId for log lines
     * @param errors counts permits that could not be finished
     */
    FirePermits(String nodeId, AtomicLong errors) {
        this.nodeId = nodeId;
        this.errors = errors;
    }

    boolean holds(String fireId) {
        return permits.containsKey(fireId);
    }

    /** Records the permit of a fire instance the current worker thread runs. */
    void hold(String fireId, JobPermit permit) {
        permits.put(fireId, permit);
        heldOnThread.set(fireId);
    }

    /** Finishes a permit this thread still holds for an earlier fire instance whose callbacks were lost. */
    void releaseStale(String fireId) {
        String stale = heldOnThread.get();
        if (stale != null && !stale.equals(fireId) && permits.containsKey(stale)) {
            log.warn("job-guard: fire instance {} on node {} was never completed by Quartz; releasing its lease",
                    stale, nodeId);
            release(stale, new CancellationException("Quartz never completed the firing"));
        }
    }

    /** Finishes the fire instance's permit, if any; never throws. */
    void release(String fireId, Throwable failure) {
        try {
            JobPermit permit = fireId == null ? null : permits.remove(fireId);
            if (fireId != null && fireId.equals(heldOnThread.get())) {
                heldOnThread.remove();
            }
            if (permit != null) {
                permit.finish(failure);
            }
        } catch (Throwable e) {
            errors.incrementAndGet();
            log.error("job-guard: node {} could not release fire instance {}", nodeId, fireId, e);
        }
    }
}
