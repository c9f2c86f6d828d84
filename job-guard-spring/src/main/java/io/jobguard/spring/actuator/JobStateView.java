package io.jobguard.spring.actuator;

import io.jobguard.JobGuard;
import io.jobguard.store.LeaseRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The read side of the {@code jobguard} endpoint towards the lease store: a job's live run lease,
 * its pause flag, its recent fire times and this node's clock skew. It is the one place the
 * endpoint reads store state through, so an optional store capability (history, pause) is handled
 * here once. A read that fails is logged at WARN and shown as absent: the report of the other jobs
 * still answers while Redis is unreachable.
 */
final class JobStateView {

    private static final Logger log = LoggerFactory.getLogger(JobStateView.class);

    private final JobGuard guard;

    JobStateView(JobGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** The job's live run lease, cluster-wide; empty when none is held or it cannot be read. */
    Optional<JobGuardEndpoint.RunLease> lease(String job) {
        try {
            return guard.currentLease(job).map(r -> runLease(job, r));
        } catch (RuntimeException e) {
            log.warn("job-guard: could not read the run lease of job '{}': {}", job, e.toString());
            return Optional.empty();
        }
    }

    private static JobGuardEndpoint.RunLease runLease(String job, LeaseRecord r) {
        Duration ttl = r.expiresIn();
        return new JobGuardEndpoint.RunLease(job, r.describeHolder(), r.nominalFireTime(), r.acquiredAt(),
                ttl == null ? null : ttl.toString(), r.fencingToken(), r.foreign());
    }

    /** Adds the job's pause flag to {@code paused} when it is set. */
    void pausedInto(Map<String, JobGuardEndpoint.Paused> paused, String job) {
        JobGuardEndpoint.Paused p = pause(job);
        if (p != null) {
            paused.put(job, p);
        }
    }

    /** The job's cluster-wide pause flag, or null when it is not paused or cannot be read. */
    JobGuardEndpoint.Paused pause(String job) {
        try {
            return guard.paused(job).map(p -> new JobGuardEndpoint.Paused(p.pausedAt(), p.node(), p.by()))
                    .orElse(null);
        } catch (RuntimeException e) {
            log.warn("job-guard: could not read the pause flag of job '{}': {}", job, e.toString());
            return null;
        }
    }

    /** The job's recent fire times, newest first, with the node that ran each. */
    List<JobGuardEndpoint.Fire> recentFires(String job) {
        try {
            return guard.recentFires(job).stream()
                    .map(r -> new JobGuardEndpoint.Fire(r.nominalFireTime(), r.describeHolder(), r.acquiredAt(),
                            r.fencingToken()))
                    .toList();
        } catch (UnsupportedOperationException e) {
            // the store keeps no cluster-wide run history (no RunHistory capability): show none
            return List.of();
        }
    }

    /** This node's clock minus Redis TIME, or null when Redis cannot be reached. */
    String skew() {
        try {
            return guard.measureClockSkew().toString();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Deletes the job's run lease whoever holds it; whether one was held. */
    boolean forceRelease(String job) {
        return guard.forceRelease(job);
    }
}
