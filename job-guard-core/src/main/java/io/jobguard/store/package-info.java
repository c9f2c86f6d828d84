/**
 * The lease-store SPI: {@link io.jobguard.store.LeaseStore} admits a firing by taking the job's run lease and its
 * fire-time marker in one atomic step, renews and releases them owner-checked, and lets them expire by the store's
 * own clock; {@link io.jobguard.store.RunHistory} and {@link io.jobguard.store.OperatorControl} are optional
 * capabilities a store offers only when it can answer them truly, cluster-wide. The values exchanged
 * ({@link io.jobguard.store.RunLeaseRequest}, {@link io.jobguard.store.AcquireResult},
 * {@link io.jobguard.store.LeaseRecord}, ...) are immutable. The core test-jar's {@code LeaseStoreContract} checks an
 * implementation against these semantics.
 *
 * <h2>Types</h2>
 * <ul>
 *   <li>The contract: {@link io.jobguard.store.LeaseStore}; it fails with
 *       {@link io.jobguard.store.LeaseStoreException} when it cannot be reached or answers something it should not
 *       have, and hands out a {@link io.jobguard.store.ReleaseWatch}, opened before an attempt so that a release
 *       between the attempt and the wait is not missed.</li>
 *   <li>Values: a {@link io.jobguard.store.JobId} (namespace and job name) names a job; a
 *       {@link io.jobguard.store.RunLeaseRequest} is one attempt, with an {@link io.jobguard.store.AcquireMode} saying
 *       what it is for and which recovery checks it asks for; an {@link io.jobguard.store.AcquireResult} is the store's
 *       answer; a {@link io.jobguard.store.LeaseRecord} is what the store knows about a lease or a fire-time marker; a
 *       {@link io.jobguard.store.RunRecord} is what it knows about the job's latest fire times; a
 *       {@link io.jobguard.store.RunEnd} is how a run ended, recorded with its release; a
 *       {@link io.jobguard.store.RetryByHand} is the answer to an operator's retry of a failed fire time; a
 *       {@link io.jobguard.store.ScheduleClaim} is what one node said about a job's schedule, and when.</li>
 *   <li>Optional capabilities, asked through {@link io.jobguard.store.LeaseStore#capability(Class)}:
 *       {@link io.jobguard.store.RunHistory} (the live lease and the run history, paged and exported, for operators;
 *       {@link io.jobguard.store.HistoryFormat} writes an export as CSV or NDJSON),
 *       {@link io.jobguard.store.OperatorControl} (force release, pausing and retrying a failed fire time by hand),
 *       {@link io.jobguard.store.RunRecovery} (the run record and the acquires that recover missed fire times and dead
 *       runs), {@link io.jobguard.store.OutcomeRecording} (every fire time's outcome on the job's history) and
 *       {@link io.jobguard.store.FleetView} (what the nodes publish to each other: clock leads, schedules and, read as
 *       {@link io.jobguard.store.FleetMembers}, each live node's part in the fleet spread).</li>
 * </ul>
 */
package io.jobguard.store;
