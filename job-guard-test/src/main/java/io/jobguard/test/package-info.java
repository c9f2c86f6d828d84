/**
 * job-guard's test kit: {@link io.jobguard.test.SimulatedLeaseStore} (a lease store whose scenarios are another node,
 * a store outage, a lost lease and a lost history; {@link io.jobguard.test.AnotherNode} is the other node),
 * {@link io.jobguard.test.MutableClock}, and {@link io.jobguard.test.JobGuardTester}, which fires guarded jobs through
 * the real engine and keeps the outcomes it reported ({@code FiringRecord}); JUnit 5 support in
 * {@link io.jobguard.test.JobGuardTest} and {@link io.jobguard.test.JobGuardExtension}. For tests only.
 */
package io.jobguard.test;
