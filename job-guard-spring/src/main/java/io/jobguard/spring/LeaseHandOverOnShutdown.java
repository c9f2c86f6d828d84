package io.jobguard.spring;

import io.jobguard.DurationParser;
import io.jobguard.JobGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Duration;

/**
 * Graceful shutdown of guarded runs: in the stop phase just before the application's
 * {@link RedisConnectionFactory} stops (and before {@link RedisClientsCloser}), every {@link JobGuard} waits for
 * its running guarded runs and then gives up the leases of those still going ({@link JobGuard#handOverLeases}).
 * From then on the guard takes no new lease: a firing that comes later (the scheduler may go on firing while the
 * context closes) is refused on this node without asking Redis, and another node runs it. A rolling restart
 * therefore never leaves a lease to expire by TTL: no run can start holding a lease that the stopped connection
 * factory could no longer release. A context started again after a stop opens admission again.
 *
 * <p>How long it waits follows the scheduler's configuration: with
 * {@code spring.task.scheduling.shutdown.await-termination=true} the scheduler only waits for its tasks when it
 * is destroyed, after the connection factory has stopped, so the wait happens here instead, up to
 * {@code spring.task.scheduling.shutdown.await-termination-period}. Otherwise the scheduler has already waited
 * for its running tasks in its own, earlier stop phase (bounded by {@code spring.lifecycle.timeout-per-shutdown-phase}),
 * and runs still going now are given up at once.
 */
final class LeaseHandOverOnShutdown extends StopsBeforeRedis {

    private static final Logger log = LoggerFactory.getLogger(LeaseHandOverOnShutdown.class);

    private final Environment environment;

    /**
     * Two phases above the latest-stopping connection factory: before it, and before RedisClientsCloser.
     *
     * @param beanFactory the context's bean factory
     * @param environment the context's environment, with the scheduler's shutdown settings
     */
    LeaseHandOverOnShutdown(ConfigurableListableBeanFactory beanFactory, Environment environment) {
        super(beanFactory, 2);
        this.environment = environment;
    }

    @Override
    void beforeRedisStops() {
        Duration wait = schedulerWait();
        forEachCreated(JobGuard.class, (name, guard) -> handOver(guard, wait));
    }

    /** A context started again after a stop (its connection factory too): the guards take leases again. */
    @Override
    void afterRestart() {
        forEachCreated(JobGuard.class, (name, guard) -> guard.reopenAdmission());
    }

    private static void handOver(JobGuard guard, Duration wait) {
        try {
            if (guard.activeLeases() > 0) {
                log.info("job-guard: shutting down with {} guarded run(s) going; waiting up to {} before their"
                        + " leases are given up", guard.activeLeases(), wait);
            }
            int givenUp = guard.handOverLeases(wait);
            if (givenUp > 0) {
                log.info("job-guard: {} lease(s) of runs still going at shutdown given up", givenUp);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("job-guard: handing over leases at shutdown failed: {}", e.toString());
        }
    }

    private Duration schedulerWait() {
        if (!Boolean.parseBoolean(environment.getProperty("spring.task.scheduling.shutdown.await-termination"))) {
            return Duration.ZERO;
        }
        return DurationParser.parseOrDefault(environment.getProperty("spring.task.scheduling.shutdown.await-termination-period"),
                Duration.ZERO, "spring.task.scheduling.shutdown.await-termination-period");
    }
}
