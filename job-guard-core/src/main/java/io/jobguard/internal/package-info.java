/**
 * Helpers shared by the core and job-guard's Spring and Quartz modules, exported to those only: the one check of
 * every name put in a key or a log line ({@link io.jobguard.internal.Names}), range checks of durations and counts
 * ({@link io.jobguard.internal.TimeBounds}, {@link io.jobguard.internal.Counts}) so that every path refuses the same
 * values with the same message, keep-alive and local lease deadlines, leases left by lost acquire replies, local
 * release signals, rate-limited logs and daemon threads. Not an API: it may change in any release.
 *
 * <ul>
 *   <li>Leases on this node: {@link io.jobguard.internal.KeepAlive} renews live leases every lease/3 and reports each
 *       lost lease no later than its {@link io.jobguard.internal.LeaseDeadline}, how long this node may still believe
 *       it holds a lease by its own monotonic clock; {@link io.jobguard.internal.LostReplies} releases, owner-checked,
 *       the leases that acquire attempts whose reply never came may have left.</li>
 *   <li>Waiting: {@link io.jobguard.internal.LocalSignals} are in-JVM release signals that keep a signal arriving
 *       before the wait, so a release between an attempt and the wait is never missed.</li>
 *   <li>Operations: {@link io.jobguard.internal.RateLimitedLog} lets at most one log line per key through per period
 *       and counts the rest; {@link io.jobguard.internal.DaemonThreads} makes job-guard's background threads daemons
 *       named after their owner.</li>
 * </ul>
 */
package io.jobguard.internal;
