package io.jobguard.internal.engine;

import io.jobguard.JobGuardConfig;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.OperatorControl;
import io.jobguard.store.RetryByHand;
import io.jobguard.store.RunHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What an operator reads and does through one engine (pause, resume, the live lease, recent fires, force release,
 * retry by hand),
 * each through the store's optional capability; a store without it refuses with an exception that names the store and
 * what it cannot do.
 */
final class OperatorActions {

    private static final Logger log = LoggerFactory.getLogger(OperatorActions.class);

    /** The largest history page. */
    static final int MAX_PAGE = 1_000;

    private final LeaseStore store;
    private final JobGuardConfig config;

    OperatorActions(LeaseStore store, JobGuardConfig config) {
        this.store = store;
        this.config = config;
    }

    boolean pause(String job, String by) {
        return pauses().pause(id(job), config.nodeId(), by == null ? "" : by);
    }

    boolean resume(String job) {
        return pauses().resume(id(job));
    }

    Optional<OperatorControl.Pause> paused(String job) {
        return store.capability(OperatorControl.class).flatMap(p -> p.paused(id(job)));
    }

    Optional<LeaseRecord> currentLease(String job) {
        return required(RunHistory.class, "keeps no cluster-wide run history").currentRunLease(id(job));
    }

    List<LeaseRecord> recentFires(String job) {
        return required(RunHistory.class, "keeps no cluster-wide run history").recentFires(id(job), config.historySize());
    }

    RunHistory.Page history(String job, RunHistory.Query query, String cursor, int pageSize) {
        if (pageSize < 1 || pageSize > MAX_PAGE) {
            throw new IllegalArgumentException("job-guard: history page size must be 1 to " + MAX_PAGE + ", got "
                    + pageSize);
        }
        return required(RunHistory.class, "keeps no cluster-wide run history").historyPage(id(job),
                Objects.requireNonNull(query, "query"), cursor, pageSize);
    }

    void exportHistory(String job, RunHistory.Query query, Predicate<RunHistory.FireEntry> sink) {
        required(RunHistory.class, "keeps no cluster-wide run history").exportHistory(id(job),
                Objects.requireNonNull(query, "query"), Objects.requireNonNull(sink, "sink"));
    }

    boolean forceRelease(String job) {
        boolean deleted = required(OperatorControl.class, "cannot release another node's lease").forceReleaseRun(id(job));
        log.warn("job-guard: job '{}' run lease force-released by node {} (deleted={})", job, config.nodeId(),
                deleted);
        return deleted;
    }

    RetryByHand retryByHand(String job, Instant fireTime, String by) {
        Objects.requireNonNull(fireTime, "fireTime");
        RetryByHand answer = required(OperatorControl.class, "cannot retry a failed fire time by hand")
                .retryByHand(id(job), fireTime, config.nodeId(), config.historySize());
        log.warn("job-guard: job '{}' T={} retry by hand requested by {} on node {}: {}{}", job, fireTime,
                by == null || by.isBlank() ? "anonymous" : by, config.nodeId(), answer.status(),
                answer.scheduled() ? " (attempt " + answer.attempt() + " pending, due now)" : "");
        return answer;
    }

    private JobId id(String job) {
        return new JobId(config.namespace(), job);
    }

    /** A store whose OperatorControl cannot pause refuses with the same message (the capability's default). */
    private OperatorControl pauses() {
        return required(OperatorControl.class, "cannot pause jobs");
    }

    /** The store's capability, or an exception naming the store and what it cannot do (the Redis store can all). */
    private <T> T required(Class<T> capability, String cannot) {
        return store.capability(capability).orElseThrow(() -> new UnsupportedOperationException(
                "job-guard: not supported by the lease store " + store + ": it " + cannot + " (the Redis store can)"));
    }
}
