package io.jobguard.shedlock;

import java.time.Instant;

/**
 * Deletes the expired fire-time marker locks that {@link ShedLockLeaseStore} leaves behind: one lock per
 * nominal fire time, which ShedLock's SPI can take and release but never delete (JDBC keeps a row per lock
 * name forever). An expired marker protects nothing (any node could take it again), so deleting it changes no
 * guarantee; it only keeps the lock table from growing by one row per fire time.
 */
@FunctionalInterface
public interface MarkerReaper {

    /**
     * Deletes the marker locks whose names start with {@code namePrefix} and whose lock expired before
     * {@code expiredBefore}.
     *
     * @param namePrefix    the markers of one job, for example {@code ns:job:fired:}
     * @param expiredBefore only locks whose {@code lock_until} is earlier go
     * @return how many were deleted
     */
    int deleteExpired(String namePrefix, Instant expiredBefore);
}
