/**
 * job-guard for Quartz: {@link io.jobguard.quartz.ClusterSingletonListener} makes each node's own
 * Quartz scheduler (a {@code RAMJobStore} is enough) run every nominal fire time of a guarded job on
 * one node of the cluster, with no overlapping runs, coordinated through the job-guard store.
 *
 * <ul>
 *   <li>Reporting: {@link io.jobguard.quartz.QuartzSchedules} gives the guarded jobs' schedules as text that is equal
 *       on two nodes exactly when their triggers produce the same fire times;
 *       {@link io.jobguard.quartz.QuartzScheduleGauges} publishes each guarded job's schedule as the gauges of
 *       {@code JobGuardMetrics#schedule}, as Spring's {@code @Scheduled} jobs have them.</li>
 *   <li>The listener's package-private parts: {@code QuartzAdmission} decides what a vetoable firing is (a recovery
 *       pass, a re-execution holding its permit, or one guarded firing of the engine);
 *       {@code CronFireTimeSnap} turns Quartz's scheduled fire time into the nominal fire time every node shares;
 *       {@code FirePermits} holds the running firings from the veto that started one to the callback that ends it,
 *       exactly once; {@code QuartzJobOptions} decides whether a job is guarded and with which options, through the
 *       resolution shared with Spring; {@code QuartzRecovery} adds the trigger (the schedule, and its misfire
 *       instruction as the default misfire policy) to a job's recovery; {@code QuartzRecoveryPass} catches up lost
 *       fire times when the scheduler starts and then at least every minute on every node, through one pending
 *       extra firing per guarded job and node that job-guard vetoes.</li>
 * </ul>
 */
package io.jobguard.quartz;
