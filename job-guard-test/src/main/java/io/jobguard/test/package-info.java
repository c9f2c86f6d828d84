/**
 * job-guard's test kit: {@link io.jobguard.test.SimulatedLeaseStore} (a lease store whose scenarios are another node,
 * a store outage, a lost lease and a lost history), {@link io.jobguard.test.MutableClock}, and
 * {@link io.jobguard.test.JobGuardTester}, which fires guarded jobs through the real engine; JUnit 5 support in
 * {@link io.jobguard.test.JobGuardTest}. For tests only.
 */
package io.jobguard.test;
