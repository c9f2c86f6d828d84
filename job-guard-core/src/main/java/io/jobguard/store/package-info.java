/**
 * The lease-store SPI: {@link io.jobguard.store.LeaseStore} admits a firing by taking the job's run lease and its
 * fire-time marker in one atomic step, renews and releases them owner-checked, and lets them expire by the store's
 * own clock; {@link io.jobguard.store.RunHistory} and {@link io.jobguard.store.OperatorControl} are optional
 * capabilities a store offers only when it can answer them truly, cluster-wide. The values exchanged
 * ({@link io.jobguard.store.RunLeaseRequest}, {@link io.jobguard.store.AcquireResult},
 * {@link io.jobguard.store.LeaseRecord}, ...) are immutable. The core test-jar's {@code LeaseStoreContract} checks an
 * implementation against these semantics.
 */
package io.jobguard.store;
