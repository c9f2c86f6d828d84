package io.jobguard.internal.engine;

import io.jobguard.RunOutcome;
import io.jobguard.store.LeaseRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logs {@link RunOutcome#HISTORY_LOST} at WARN once per job and loss (an every-second job would
 * otherwise log every refused fire time of the window); the other refusals of the same loss are
 * logged at DEBUG. Every refusal is still reported to listeners and counted by the metrics.
 */
final class HistoryLossLog {

    private static final Logger log = LoggerFactory.getLogger(HistoryLossLog.class);

    private final String namespace;
    private final String nodeId;
    /** Job name to the epoch last warned about; bounded by the number of jobs. */
    private final Map<String, String> warned = new ConcurrentHashMap<>();

    HistoryLossLog(String namespace, String nodeId) {
        this.namespace = namespace;
        this.nodeId = nodeId;
    }

    /** {@code runsAgain}: about when (this node's clock) the job's fire times are no longer refused, if known. */
    void warn(String job, Instant nominalFireTime, LeaseRecord epoch, Instant runsAgain) {
        String id = epoch == null ? "" : epoch.raw();
        String previous = warned.put(job, id);
        if (!Objects.equals(previous, id)) {
            log.warn("job-guard: job '{}' (namespace '{}') T={} node={} outcome HISTORY_LOST: the store lost the job's "
                    + "history (Redis restarted without persistence, was flushed, failed over to a replica that missed "
                    + "writes, or evicted job-guard's keys; noticed at {}). Fire times that may have run before the loss "
                    + "are skipped, never caught up; fire times from about {} on run again", job, namespace, nominalFireTime, nodeId,
                    epoch == null ? "unknown" : epoch.acquiredAt(), runsAgain == null ? "the end of the refusal" : runsAgain);
        } else if (log.isDebugEnabled()) {
            log.debug("job-guard: job '{}' T={} node={} outcome HISTORY_LOST (same loss)", job, nominalFireTime, nodeId);
        }
    }
}
