/**
 * Helpers shared by the core and job-guard's Spring and Quartz modules, exported to those only: the one check of
 * every name put in a key or a log line ({@link io.jobguard.internal.Names}), range checks of durations and counts
 * ({@link io.jobguard.internal.TimeBounds}, {@link io.jobguard.internal.Counts}) so that every path refuses the same
 * values with the same message, keep-alive and local lease deadlines, leases left by lost acquire replies, local
 * release signals, rate-limited logs and daemon threads. Not an API: it may change in any release.
 */
package io.jobguard.internal;
