package io.jobguard.spring;

import java.time.Instant;
import java.util.List;

/**
 * Tells the {@code jobguard} actuator endpoint about jobs guarded outside Spring's
 * {@code @Scheduled} integration (for example Quartz jobs guarded by job-guard-quartz). The
 * endpoint lists each contributed job with its live run lease and, on {@code /{job}}, its recent
 * fire times, read from the engine by job name. Implementations are beans; they must be cheap
 * and must not throw (a failing contributor is logged and skipped).
 */
@FunctionalInterface
public interface GuardedJobsContributor {

    /**
     * The guarded jobs this contributor knows now.
     *
     * @return the jobs, by job-guard job name
     */
    List<ContributedJob> guardedJobs();

    /**
     * One contributed guarded job.
     *
     * @param name                the job-guard job name (the run lease's name)
     * @param source              what runs it, for people (e.g. {@code Quartz job reports.nightly (com.example.Nightly)})
     * @param type                RETURN or WAIT
     * @param lease               the run lease, ISO-8601
     * @param waitFor             the WAIT bound, ISO-8601
     * @param busyGrace           how long a RETURN firing waits for another fire time's run before it skips, ISO-8601
     * @param schedule            the schedule as text (e.g. {@code cron "0 0 2 * * ?"}), or null when unknown
     * @param nextNominalFireTime the next fire time, or null when none is scheduled
     */
    record ContributedJob(String name, String source, String type, String lease, String waitFor, String busyGrace,
                          String schedule, Instant nextNominalFireTime) {
    }
}
