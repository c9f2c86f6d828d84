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

    private final JobGuardLockProvider provider;
    private final String name;
    private final String token;
    private final Instant lockedAt;
    private final Duration lockAtMostFor;
    private final Duration lockAtLeastFor;
    private final long started;
    private final long acquireNanos;
    private final long expiresAtNanos;
    private final AtomicBoolean valid = new AtomicBoolean(true);

    RedisShedLock(JobGuardLockProvider provider, String name, String token, Instant lockedAt, Duration lockAtMostFor,
                  Duration lockAtLeastFor, long started, long acquireNanos) {
        this.provider = provider;
        this.name = name;
        this.token = token;
        this.lockedAt = lockedAt;
        this.lockAtMostFor = lockAtMostFor;
        this.lockAtLeastFor = lockAtLeastFor;
        this.started = started;
        this.acquireNanos = acquireNanos;
        this.expiresAtNanos = System.nanoTime() + lockAtMostFor.toNanos();
    }

    @Override
    public void unlock() {
        invalidate();
        provider.unlock(this);
    }

    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        JobGuardLockProvider.requirePositive(lockAtMostFor, name);
        if (lockAtLeastFor.isNegative() || lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
            throw new IllegalArgumentException("lockAtLeastFor of ShedLock lock '" + name
                    + "' must be between zero and lockAtMostFor " + lockAtMostFor + ", got " + lockAtLeastFor);
        }
        invalidate();
        return provider.extend(this, lockAtMostFor, lockAtLeastFor);
    }

    RedisShedLock successor(String newToken, Instant newLockedAt, Duration newLockAtMostFor,
                            Duration newLockAtLeastFor) {
        return new RedisShedLock(provider, name, newToken, newLockedAt, newLockAtMostFor, newLockAtLeastFor, started,
                acquireNanos);
    }

    private void invalidate() {
        if (!valid.compareAndSet(true, false)) {
            throw new IllegalStateException("ShedLock lock '" + name
                    + "' handle is no longer valid: it was already unlocked or extended");
        }
    }

    boolean expired(long nowNanos) {
        return nowNanos - expiresAtNanos >= 0;
    }

    JobGuardLockProvider.HeldLock describe(String nodeId) {
        return new JobGuardLockProvider.HeldLock(name, nodeId, lockedAt, lockedAt.plus(lockAtMostFor),
                lockedAt.plus(lockAtLeastFor));
    }

    String name() {
        return name;
    }

    String token() {
        return token;
    }

    Instant lockedAt() {
        return lockedAt;
    }

    Duration lockAtMostFor() {
        return lockAtMostFor;
    }

    Duration lockAtLeastFor() {
        return lockAtLeastFor;
    }

    long started() {
        return started;
    }

    long acquireNanos() {
        return acquireNanos;
    }

    @Override
    public String toString() {
        return "ShedLock lock '" + name + "' locked at " + lockedAt + " for at most " + lockAtMostFor;
    }
}
