package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the endpoint reads from the store about one job, cluster-wide: its live run lease, its pause
 * flag and its recent fire times with their outcomes. The one place the actuator asks the store's
 * optional capabilities ({@link RunHistory}); a store that keeps no outcomes shows its fire times
 * without outcome (the capability's default). A read that fails is logged at WARN and shown as absent,
 * so one unreachable value does not take the whole report down.
 */
final class JobHistoryView {

    private static final Logger log = LoggerFactory.getLogger(JobHistoryView.class);

    /**
     * The fire times a job's report and the dashboard's timeline show: the newest; the whole history is paged
     * ({@code JobHistoryQueries}).
     */
    static final int RECENT_FIRES = 20;

    private final JobGuard guard;

    JobHistoryView(JobGuard guard) {
        this.guard = guard;
    }

    List<JobGuardEndpoint.Fire> fires(String job) {
        try {
            Optional<RunHistory> history = guard.store().capability(RunHistory.class);
            if (history.isPresent()) {
                return history.get().fireHistory(new JobId(guard.config().namespace(), job),
                                Math.min(RECENT_FIRES, guard.config().historySize()))
                        .stream().map(JobHistoryView::fire).toList();
            }
            // without the capability JobGuard#recentFires refuses, naming the store (logged below)
            return guard.recentFires(job).stream().map(r -> new JobGuardEndpoint.Fire(r.nominalFireTime(),
                    r.describeHolder(), null, null, r.acquiredAt(), r.fencingToken())).toList();
        } catch (RuntimeException e) {
            log.warn("job-guard: could not read the recent fire times of job '{}': {}", job, e.toString());
            return List.of();
        }
    }

    Optional<JobGuardEndpoint.RunLease> lease(String job) {
        try {
            return guard.currentLease(job).map(r -> runLease(job, r));
        } catch (RuntimeException e) {
            log.warn("job-guard: could not read the run lease of job '{}': {}", job, e.toString());
            return Optional.empty();
        }
    }

    JobGuardEndpoint.Paused pause(String job) {
        try {
            return guard.paused(job).map(p -> new JobGuardEndpoint.Paused(p.pausedAt(), p.node(), p.by())).orElse(null);
        } catch (RuntimeException e) {
            log.warn("job-guard: could not read the pause flag of job '{}': {}", job, e.toString());
            return null;
        }
    }

    void pausedInto(Map<String, JobGuardEndpoint.Paused> paused, String job) {
        JobGuardEndpoint.Paused p = pause(job);
        if (p != null) {
            paused.put(job, p);
        }
    }

    private static JobGuardEndpoint.Fire fire(RunHistory.FireEntry e) {
        return new JobGuardEndpoint.Fire(e.nominalFireTime(), e.node(), e.outcome(),
                e.duration() == null ? null : e.duration().toString(), e.at(), e.fencingToken(), e.attempt());
    }

    private static JobGuardEndpoint.RunLease runLease(String job, LeaseRecord r) {
        Duration ttl = r.expiresIn();
        return new JobGuardEndpoint.RunLease(job, r.describeHolder(), r.nominalFireTime(), r.acquiredAt(),
                ttl == null ? null : ttl.toString(), r.fencingToken(), r.foreign());
    }
}
