/**
 * job-guard's API: the engine {@link io.jobguard.JobGuard} (made by {@link io.jobguard.JobGuard#create}) guards a
 * scheduled job so that each of its fire times runs on at most one node of a cluster, whatever the clock skew below
 * the configured tolerance. One firing is one {@link io.jobguard.JobGuard#fire} call: an admission, then the
 * {@link io.jobguard.FiringBody} with its {@link io.jobguard.FiringEnd}, then exactly one
 * {@link io.jobguard.RunOutcome} on this node. A job's settings are {@link io.jobguard.JobOptions} (with its
 * {@link io.jobguard.RecoveryOptions} and {@link io.jobguard.RetryPolicy}), declared with {@link io.jobguard.ClusterSingleton} by the Spring and Quartz
 * adapters; the engine's are {@link io.jobguard.JobGuardConfig}. A store failure is an outcome
 * ({@code STORE_ERROR}), never an exception to the scheduler. The words fire time, firing, run, lease, permit and
 * outcome are defined in docs/architecture.md's glossary.
 *
 * <h2>Types</h2>
 * <ul>
 *   <li>Firing: {@link io.jobguard.JobGuard#fire} returns a {@link io.jobguard.Fired} (the value of a body that
 *       started, or why the fire time was not run here) and tells a {@link io.jobguard.FiringObserver} when the run
 *       starts and, exactly once, how the firing ended. The lower-level {@link io.jobguard.JobGuard#admit} answers an
 *       {@link io.jobguard.Admission}: a {@link io.jobguard.FiringPermit} (the right to run one firing, while no other
 *       run of the job starts in the cluster) or why the firing is skipped. {@link io.jobguard.LastFiring} is the last
 *       firing this node decided and how it ended.</li>
 *   <li>Running: a running job asks its {@link io.jobguard.RunContext} for its fire time, its fencing token and
 *       whether its lease was lost; {@link io.jobguard.LeaseLostException} is thrown when a run must not go on writing
 *       because its lease is gone.</li>
 *   <li>Settings: {@link io.jobguard.GuardType} (skip or wait when another run holds the lease),
 *       {@link io.jobguard.MisfirePolicy} (fire times nobody started), {@link io.jobguard.Delivery} (runs that started
 *       and never completed), {@link io.jobguard.StoreFailurePolicy} (what a firing does when the store cannot be
 *       reached), {@link io.jobguard.NodeConfig} (the one place this node's id is configured),
 *       {@link io.jobguard.FireTimeSchedule} (a job's grid of nominal fire times, the same on every node) and
 *       {@link io.jobguard.DurationParser} (the duration strings of annotations and properties).</li>
 *   <li>Declaring: {@link io.jobguard.ClusterSingleton} marks a guarded scheduled job; {@link io.jobguard.BatchLocked}
 *       runs a method only while every business key computed from its arguments is locked by one batch lease;
 *       {@link io.jobguard.JobGuard#declareScheduledJobs} names the jobs this node fires on a schedule (the fleet
 *       spread), with the {@link io.jobguard.TakeOverExecutor} that runs a fire time it takes over.</li>
 *   <li>Observing: a {@link io.jobguard.JobGuardListener} hears one {@link io.jobguard.JobEvent} per firing, for
 *       metrics, events and tests.</li>
 * </ul>
 */
package io.jobguard;
