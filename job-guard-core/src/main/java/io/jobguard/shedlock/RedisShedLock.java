package io.jobguard.shedlock;

import net.javacrumbs.shedlock.core.SimpleLock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One handle of a {@link JobGuardLockProvider} lock. Usable once: {@code unlock} or
 * {@code extend} invalidates it (the owner token also moves on extend, so even a stale copy of the
 * token is refused by Redis).
 */
final class RedisShedLock implements SimpleLock {

    /**
     * What Redis granted: the lock's name and owner token, its lock time (Redis) and bounds, and when the
     * caller started asking and how long the grant took ({@code System.nanoTime()}, for the listener).
     */
    record Grant(String name, String token, Instant lockedAt, Duration lockAtMostFor, Duration lockAtLeastFor,
                 long started, long acquireNanos) {

        /** The grant of an extension: a new token and times, the same name and start. */
        Grant extended(String newToken, Instant newLockedAt, Duration newLockAtMostFor, Duration newLockAtLeastFor) {
            return new Grant(name, newToken, newLockedAt, newLockAtMostFor, newLockAtLeastFor, started, acquireNanos);
        }
    }

    private final JobGuardLockProvider provider;
    private final Grant grant;
    private final long expiresAtNanos;
    private final AtomicBoolean valid = new AtomicBoolean(true);

    RedisShedLock(JobGuardLockProvider provider, Grant grant) {
        this.provider = provider;
        this.grant = grant;
        this.expiresAtNanos = System.nanoTime() + grant.lockAtMostFor().toNanos();
    }

    @Override
    public void unlock() {
        invalidate();
        provider.unlock(grant);
    }

    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        JobGuardLockProvider.requirePositive(lockAtMostFor, grant.name());
        if (lockAtLeastFor.isNegative() || lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
            throw new IllegalArgumentException("lockAtLeastFor of ShedLock lock '" + grant.name()
                    + "' must be between zero and lockAtMostFor " + lockAtMostFor + ", got " + lockAtLeastFor);
        }
        invalidate();
        return provider.extend(grant, lockAtMostFor, lockAtLeastFor);
    }

    private void invalidate() {
        if (!valid.compareAndSet(true, false)) {
            throw new IllegalStateException("ShedLock lock '" + grant.name()
                    + "' handle is no longer valid: it was already unlocked or extended");
        }
    }

    Grant grant() {
        return grant;
    }

    boolean expired(long nowNanos) {
        return nowNanos - expiresAtNanos >= 0;
    }

    JobGuardLockProvider.HeldLock describe(String nodeId) {
        return new JobGuardLockProvider.HeldLock(grant.name(), nodeId, grant.lockedAt(),
                grant.lockedAt().plus(grant.lockAtMostFor()), grant.lockedAt().plus(grant.lockAtLeastFor()));
    }

    @Override
    public String toString() {
        return "ShedLock lock '" + grant.name() + "' locked at " + grant.lockedAt() + " for at most "
                + grant.lockAtMostFor();
    }
}
