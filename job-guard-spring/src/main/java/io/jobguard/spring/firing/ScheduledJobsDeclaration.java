package io.jobguard.spring.firing;

import io.jobguard.JobGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.scheduling.TaskScheduler;

import java.util.Optional;
import java.util.Set;

/**
 * Declares every guarded {@code @Scheduled} method's job to the engine ({@link JobGuard#declareScheduledJobs}) before
 * the scheduler starts. With the fleet spread on, each cron or fixed-rate RETURN job's fire times are then asked for
 * by one node of the live fleet; a firing before the declaration asks as without it. A fire time this node takes over
 * runs on the scheduler that runs the job.
 */
public final class ScheduledJobsDeclaration implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ScheduledJobsDeclaration.class);

    private final ObjectProvider<GuardedJobRegistry> registry;
    private final ObjectProvider<JobGuard> guard;

    /**
     * @param registry the guarded {@code @Scheduled} methods
     * @param guard    the engine
     */
    public ScheduledJobsDeclaration(ObjectProvider<GuardedJobRegistry> registry, ObjectProvider<JobGuard> guard) {
        this.registry = registry;
        this.guard = guard;
    }

    @Override
    public void afterSingletonsInstantiated() {
        GuardedJobRegistry jobs = registry.getIfAvailable();
        JobGuard engine = guard.getIfAvailable();
        if (jobs == null || engine == null || jobs.all().isEmpty()) {
            return;
        }
        Set<String> spread = engine.declareScheduledJobs(jobs.all().stream().map(GuardedJob::options).toList(),
                (job, firing) -> onItsScheduler(jobs, job, firing));
        log.info("job-guard: {} of {} guarded @Scheduled jobs spread over the live fleet (jobguard.spread.enabled={})",
                spread.size(), jobs.all().size(), engine.config().spread());
    }

    /**
     * A fire time taken over runs on the scheduler that runs the job's regular firings (its pool, or Boot's virtual
     * threads), as soon as it has a thread free; before that scheduler is known, on job-guard's take-over thread.
     */
    private static void onItsScheduler(GuardedJobRegistry jobs, String job, Runnable firing) {
        Optional<TaskScheduler> scheduler = jobs.forName(job).flatMap(GuardedJob::runsOn);
        if (scheduler.isPresent()) {
            scheduler.get().schedule(firing, scheduler.get().getClock().instant());
        } else {
            firing.run();
        }
    }
}
