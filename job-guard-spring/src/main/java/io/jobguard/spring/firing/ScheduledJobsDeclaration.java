package io.jobguard.spring.firing;

import io.jobguard.JobGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import java.util.Set;

/**
 * Declares every guarded {@code @Scheduled} method's job to the engine ({@link JobGuard#declareScheduledJobs}) once
 * every singleton exists, before the scheduler starts. With the fleet spread on, each cron or fixed-rate RETURN job's
 * fire times are then asked for by one node of the live fleet. A firing before the declaration asks as without it.
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
        Set<String> spread = engine.declareScheduledJobs(jobs.all().stream().map(GuardedJob::options).toList());
        log.info("job-guard: {} of {} guarded @Scheduled jobs spread over the live fleet (jobguard.spread.enabled={})",
                spread.size(), jobs.all().size(), engine.config().spread());
    }
}
