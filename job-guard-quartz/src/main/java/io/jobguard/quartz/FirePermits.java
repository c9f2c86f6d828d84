package io.jobguard.quartz;

import io.jobguard.FiringEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The running firings a {@link ClusterSingletonListener} holds, by Quartz fire instance, from the veto in
 * which the engine started one to the callback that ends it. The listener is the firing's one owner: every
 * firing is ended exactly once (through its {@link FiringEnd}, which finishes the permit and records the
 * outcome); one whose callbacks Quartz never delivered is ended when its worker thread starts another
 * firing, so a lost callback blocks the job for no longer than that.
 */
final class FirePermits {

    private static final Logger log = LoggerFactory.getLogger(FirePermits.class);

    private final String nodeId;
    private final AtomicLong errors;
    private final Map<String, FiringEnd> permits = new ConcurrentHashMap<>();
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

    /** Records the running firing of a fire instance the current worker thread runs. */
    void hold(String fireId, FiringEnd firing) {
        permits.put(fireId, firing);
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

    /** Ends the fire instance's firing, if any; never throws. */
    void release(String fireId, Throwable failure) {
        try {
            FiringEnd firing = fireId == null ? null : permits.remove(fireId);
            if (fireId != null && fireId.equals(heldOnThread.get())) {
                heldOnThread.remove();
            }
            if (firing != null) {
                firing.end(failure);
            }
        } catch (Throwable e) {
            errors.incrementAndGet();
            log.error("job-guard: node {} could not release fire instance {}", nodeId, fireId, e);
        }
    }
}
