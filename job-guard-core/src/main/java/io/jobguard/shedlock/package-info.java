/**
 * job-guard and ShedLock, both ways. {@link io.jobguard.shedlock.ShedLockLeaseStore} runs the singleton path on any
 * ShedLock {@code LockProvider} (one lock per fire time as the marker, one as the run lease; no fencing tokens, so no
 * batch locks; {@link io.jobguard.shedlock.MarkerReaper} deletes expired markers, and
 * {@link io.jobguard.shedlock.JdbcMarkerReaper} is that reaper for ShedLock's JDBC providers). {@link
 * io.jobguard.shedlock.JobGuardLockProvider} is a ShedLock provider on job-guard's Redis, so {@code @SchedulerLock}
 * methods keep working when an application moves to job-guard; each lock it grants is a package-private
 * {@code RedisShedLock} handle, usable once, whose unlock and extend are owner-checked by Redis.
 */
package io.jobguard.shedlock;
