/**
 * Spring Boot auto-configuration of job-guard: the {@code jobguard.*} properties, the engine and
 * its Redis store, per-job overrides, Micrometer meters and the periodic clock-skew check.
 *
 * <ul>
 *   <li>Auto-configurations: {@link io.jobguard.spring.boot.JobGuardAutoConfiguration} (the store, the node, the
 *       engine and the {@code @ClusterSingleton} integration), {@link io.jobguard.spring.boot.JobGuardBatchAutoConfiguration}
 *       (batch locks and {@code @BatchLocked}), {@link io.jobguard.spring.boot.JobGuardMetricsAutoConfiguration}
 *       (meters), {@link io.jobguard.spring.boot.JobGuardRedisAutoConfiguration} (the eviction check and prompt
 *       reconnects), {@link io.jobguard.spring.boot.JobGuardLettuceAutoConfiguration} (Boot 4's Lettuce reconnect
 *       backoff, {@link io.jobguard.spring.boot.LettuceReconnectDelay}) and
 *       {@link io.jobguard.spring.boot.JobGuardTransactionAutoConfiguration} (transactions that check the run's
 *       lease before they commit); {@code AutoConfigurationNames} names Boot's auto-configurations they run after on
 *       each Boot line.</li>
 *   <li>Properties, immutable once bound: {@link io.jobguard.spring.boot.JobGuardProperties} ({@code jobguard.*}),
 *       {@link io.jobguard.spring.boot.JobOverrideProperties} ({@code jobguard.jobs.<name>.*}),
 *       {@link io.jobguard.spring.boot.JobGuardBatchProperties}, {@link io.jobguard.spring.boot.JobGuardRedisProperties},
 *       {@link io.jobguard.spring.boot.JobGuardTransactionProperties},
 *       {@link io.jobguard.spring.boot.JobGuardSpreadProperties} ({@code jobguard.spread.*}),
 *       {@link io.jobguard.spring.boot.JobGuardHistoryProperties} ({@code jobguard.history.*}) and
 *       {@link io.jobguard.spring.boot.JobGuardActuatorProperties}. Each record is a {@code ValidatedOnBinding}, checked
 *       by {@code JobGuardPropertiesValidator} when Boot binds it; {@code JobGuardPropertiesSources} turns them into
 *       the sources of each job's options.</li>
 *   <li>Startup checks: {@code UnknownPropertiesCheck} warns about {@code jobguard.*} keys nothing binds,
 *       {@code JobPropertiesCheck} about {@code jobguard.jobs.<name>} entries that match no guarded job;
 *       {@code RedisEvictionPolicyCheck} runs the eviction check; {@code BatchLockedWithoutLocksCheck} fails when
 *       {@code @BatchLocked} methods have no batch locks to run under.</li>
 *   <li>Running: {@code ClockSkewMonitor} measures this node's clock against Redis periodically and feeds each
 *       {@code ClockSkewSink}; {@code ScheduleAgreementCheck} runs the schedule agreement monitor;
 *       {@code BatchLockMetricsBinder} binds batch lock meters to every batch locks bean; {@code ShedLockStores}
 *       builds the {@code jobguard.store=shedlock} store, touching ShedLock only when it is present.</li>
 * </ul>
 */
package io.jobguard.spring.boot;
