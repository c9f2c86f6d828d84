package io.jobguard.spring.boot;

import io.jobguard.Delivery;
import io.jobguard.JobGuardConfig;
import io.jobguard.MisfirePolicy;
import io.jobguard.StoreFailurePolicy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code jobguard.*} properties of the Spring Boot auto-configuration, immutable once bound. Durations accept
 * {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d} or ISO-8601; a value that cannot be bound, or that
 * {@link JobGuardPropertiesValidator} refuses, fails startup naming the property.
 *
 * @param enabled                Whether job-guard is active. When false, @ClusterSingleton methods run unguarded on
 *                               every node.
 * @param store                  Where leases live.
 * @param namespace              Isolates applications sharing one Redis. Defaults to spring.application.name, else
 *                               "default".
 * @param nodeId                 This node's identity, recorded with every lease. Defaults to hostname:pid.
 * @param keyPrefix              First segment of every Redis key.
 * @param defaultLease           Lease of guarded jobs whose @ClusterSingleton sets none.
 * @param defaultWaitFor         How long a WAIT job waits for the lease when its @ClusterSingleton sets no waitFor.
 *                               Defaults to the lease.
 * @param busyGrace              How long a RETURN firing that finds the run lease held by another fire time's run
 *                               waits for its release before it is skipped as BUSY (0 skips at once). Defaults to 1s,
 *                               capped at the job's lease.
 * @param skewTolerance          Largest clock difference between nodes under which each fire time still runs once.
 * @param onStoreFailure         What a firing does when Redis cannot be reached: SKIP it (fail closed) or RUN it
 *                               unguarded.
 * @param keepAlive              Whether run leases are renewed while the run is alive (a job's keepAlive = false
 *                               always wins).
 * @param interruptOnLeaseLost   Whether a run whose lease was lost is interrupted.
 * @param historySize            The older name of jobguard.history.size (the most run history entries kept per job):
 *                               the same setting; setting both to different values fails the startup.
 * @param clockSkewCheckInterval How often this node's clock is compared with Redis TIME (jobguard.clock.skew gauge,
 *                               WARN log).
 * @param scheduleCheckInterval  How often this node publishes its job schedules to Redis and compares them with the
 *                               other nodes' (WARN when they differ, e.g. a cron in another zone); a node counts for
 *                               three intervals after it last published.
 * @param misfirePolicy          What happens to fire times nobody started; unset: SKIP for a job with a grid of fire
 *                               times (cron, fixed rate) unless the job sets one; a fixed-delay job has no recovery.
 * @param catchUpWindow          How old a missed fire time may be and still be run or reported (default 1 hour).
 * @param catchUpMax             The most missed fire times RUN_ALL runs at once (default 10).
 * @param delivery               What happens to a run that started and never completed; unset: AT_MOST_ONCE for a
 *                               job with a grid of fire times unless the job sets one.
 * @param jobs                   Per-job overrides, by job name; use brackets for names with dots:
 *                               jobguard.jobs[Reports.nightly].lease=10m.
 * @param history                The run history: how many entries per job and for how long (jobguard.history.*).
 * @param actuator               The actuator endpoint.
 * @param transactions           Spring transactions inside guarded runs.
 * @param spread                 The fleet spread: which node asks Redis for each job's fire times (jobguard.spread.*).
 * @param schedulerBypass        What happens when a {@code @ClusterSingleton} method's schedule does not go through
 *                               job-guard's scheduler (a SchedulingConfigurer or wrapper bypasses it): {@code fail}
 *                               the startup or {@code warn}.
 */
@ConfigurationProperties("jobguard")
public record JobGuardProperties(@DefaultValue("true") boolean enabled,
                                 @DefaultValue("redis") Store store,
                                 String namespace,
                                 String nodeId,
                                 @DefaultValue("jobguard") String keyPrefix,
                                 @DefaultValue("5m") Duration defaultLease,
                                 Duration defaultWaitFor,
                                 Duration busyGrace,
                                 @DefaultValue("5m") Duration skewTolerance,
                                 @DefaultValue("skip") StoreFailurePolicy onStoreFailure,
                                 @DefaultValue("true") boolean keepAlive,
                                 @DefaultValue("false") boolean interruptOnLeaseLost,
                                 Integer historySize,
                                 @DefaultValue("1m") Duration clockSkewCheckInterval,
                                 @DefaultValue("1m") Duration scheduleCheckInterval,
                                 MisfirePolicy misfirePolicy,
                                 Duration catchUpWindow,
                                 Integer catchUpMax,
                                 Delivery delivery,
                                 Map<String, JobOverrideProperties> jobs,
                                 @DefaultValue @NestedConfigurationProperty JobGuardHistoryProperties history,
                                 @DefaultValue @NestedConfigurationProperty JobGuardActuatorProperties actuator,
                                 @DefaultValue @NestedConfigurationProperty JobGuardTransactionProperties transactions,
                                 @DefaultValue("fail") String schedulerBypass,
                                 @DefaultValue @NestedConfigurationProperty JobGuardSpreadProperties spread)
        implements ValidatedOnBinding {

    /** Copies the per-job overrides (in their configured order) so the bound value cannot change later. */
    public JobGuardProperties {
        jobs = jobs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(jobs));
    }

    /**
     * The most run history entries kept per job by default: {@code jobguard.history.size}, else its older name
     * {@code jobguard.history-size}, else 2,000.
     *
     * @return the size
     */
    public int effectiveHistorySize() {
        if (history != null && history.size() != null) {
            return history.size();
        }
        return historySize != null ? historySize : JobGuardConfig.DEFAULT_HISTORY_SIZE;
    }

    /** Where leases live. */
    public enum Store {
        /** The Redis store on the application's RedisConnectionFactory. */
        REDIS,
        /**
         * A store inside this JVM ({@code InMemoryLeaseStore}): for tests and single-instance apps
         * only, never chosen unless set explicitly. No batch locks.
         */
        IN_MEMORY,
        /**
         * Leases in the application's ShedLock {@code LockProvider} bean ({@code ShedLockLeaseStore}):
         * no fencing tokens, so no batch locks.
         */
        SHEDLOCK
    }
}
