package io.jobguard.internal.redis.run;

import io.jobguard.store.JobId;
import io.jobguard.store.ReleaseWatch;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs for which a caller on this node waits for a release: a WAIT firing or a RETURN firing's busy grace opens a
 * release watch before its attempts and closes it after. While one is open, the node's acquires of that job ask
 * {@code run-acquire.lua} to mark the job's waiters key on a BUSY reply, and only then does the holder's release
 * publish: a release that nobody waits for sends no message.
 */
public final class ReleaseWaiters {

    private final Map<JobId, Integer> open = new ConcurrentHashMap<>();

    /** Whether a release watch of the job is open on this node. */
    boolean waiting(JobId job) {
        return open.containsKey(job);
    }

    /** Counts the watch as one waiter of the job until it is closed. */
    public ReleaseWatch watch(JobId job, ReleaseWatch watch) {
        open.merge(job, 1, Integer::sum);
        return new ReleaseWatch() {
            private boolean closed;

            @Override
            public boolean await(Duration max) throws InterruptedException {
                return watch.await(max);
            }

            @Override
            public void close() {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    closed = true;
                }
                open.computeIfPresent(job, (j, count) -> count <= 1 ? null : count - 1);
                watch.close();
            }
        };
    }
}
