package io.jobguard.spring.actuator;

import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.LastFiring;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The jobs this node guards as the endpoint lists them: the {@code @Scheduled} methods of the registry
 * and the jobs of every {@link GuardedJobsContributor} (Quartz), asked on every read. A contributed job has no
 * assigned node: the fleet spread covers the declared {@code @Scheduled} jobs only. A contributor
 * that fails is logged at WARN and left out, so it does not take the report down.
 */
final class JobSummaries {

    private static final Logger log = LoggerFactory.getLogger(JobSummaries.class);

    private final GuardedJobRegistry registry;
    private final JobGuard guard;
    private volatile Supplier<List<GuardedJobsContributor>> contributors = List::of;

    JobSummaries(GuardedJobRegistry registry, JobGuard guard) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    void contributors(Supplier<List<GuardedJobsContributor>> source) {
        this.contributors = Objects.requireNonNull(source, "source");
    }

    /** Every job, the registry's first. */
    List<JobGuardEndpoint.JobSummary> summaries() {
        List<JobGuardEndpoint.JobSummary> jobs = new ArrayList<>();
        for (GuardedJob job : registry.all()) {
            jobs.add(summary(job));
        }
        for (GuardedJobsContributor.ContributedJob job : contributed()) {
            jobs.add(summary(job));
        }
        return jobs;
    }

    /** The job of that name, if this node guards one. */
    Optional<JobGuardEndpoint.JobSummary> summary(String name) {
        Optional<GuardedJob> guarded = registry.forName(name);
        if (guarded.isPresent()) {
            return guarded.map(this::summary);
        }
        return contributed().stream().filter(c -> c.name().equals(name)).findFirst().map(JobSummaries::summary);
    }

    private JobGuardEndpoint.JobSummary summary(GuardedJob job) {
        JobOptions o = job.options();
        LastFiring last = guard.lastFiring(o.name()).orElse(null);
        Instant next = job.schedule().nextAfter(job.clock().instant());
        return new JobGuardEndpoint.JobSummary(o.name(), GuardedJob.describe(job.beanClass(), job.method()),
                o.type().name(), o.lease().toString(), o.waitFor().toString(), o.busyGrace().toString(),
                o.cooldown().toString(), job.schedule().describe(), next,
                last == null ? null : last.nominalFireTime(), last == null ? null : last.outcome().name(),
                guard.assignedNode(o.name()).orElse(null));
    }

    private static JobGuardEndpoint.JobSummary summary(GuardedJobsContributor.ContributedJob job) {
        return new JobGuardEndpoint.JobSummary(job.name(), job.source(), job.type(), job.lease(), job.waitFor(),
                job.busyGrace(), null, job.schedule(), job.nextNominalFireTime(), null, null, null);
    }

    private List<GuardedJobsContributor.ContributedJob> contributed() {
        List<GuardedJobsContributor.ContributedJob> out = new ArrayList<>();
        for (GuardedJobsContributor contributor : contributors.get()) {
            try {
                out.addAll(contributor.guardedJobs());
            } catch (RuntimeException e) {
                log.warn("job-guard: guarded-jobs contributor {} failed: {}", contributor, e.toString());
            }
        }
        return out;
    }
}
