package io.jobguard.internal;

import io.jobguard.store.ReleaseWatch;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-JVM release signals: waiters watch a key, a release signals every watch of that key. A signal
 * that arrives between a watch's creation and its {@code await} is kept, so a release between an
 * attempt and the wait is never missed. Used by every store to wake its local waiters.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 *
 * @param <K> what is watched (a job, a notification topic)
 */
public final class LocalSignals<K> {

    private final ConcurrentHashMap<K, Set<Watch>> watches = new ConcurrentHashMap<>();
    private final Duration maxWait;

    /**
     * Creates a hub whose waits always end by themselves after {@code maxWait} at the latest.
     *
     * @param maxWait the longest one {@code await} blocks (a fallback poll interval for stores
     *                whose releases elsewhere send no signal)
     */
    public LocalSignals(Duration maxWait) {
        this.maxWait = maxWait;
    }

    /**
     * Starts watching a key.
     *
     * @param key what to watch
     * @return the watch; close it when done
     */
    public ReleaseWatch watch(K key) {
        Watch watch = new Watch(key);
        watches.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(watch);
        return watch;
    }

    /**
     * Wakes every watch of a key.
     *
     * @param key the released key
     */
    public void signal(K key) {
        Set<Watch> set = watches.get(key);
        if (set != null) {
            set.forEach(Watch::signal);
        }
    }

    private final class Watch implements ReleaseWatch {
        private final K key;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition released = lock.newCondition();
        private boolean signalled;

        Watch(K key) {
            this.key = key;
        }

        void signal() {
            lock.lock();
            try {
                signalled = true;
                released.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean await(Duration max) throws InterruptedException {
            long nanos = Math.min(max.toNanos(), maxWait.toNanos());
            lock.lock();
            try {
                while (!signalled) {
                    if (nanos <= 0) {
                        return false;
                    }
                    nanos = released.awaitNanos(nanos);
                }
                signalled = false;
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            watches.computeIfPresent(key, (k, set) -> {
                set.remove(this);
                return set.isEmpty() ? null : set;
            });
        }
    }
}
