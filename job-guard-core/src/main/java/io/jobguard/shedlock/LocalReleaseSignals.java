package io.jobguard.shedlock;

import io.jobguard.store.JobId;
import io.jobguard.store.ReleaseWatch;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Release watches for a store without cluster-wide notifications: releases made through this JVM's
 * store wake its waiters at once; otherwise a wait returns after the poll interval so that the
 * caller asks the provider again.
 */
final class LocalReleaseSignals {

    private final ConcurrentHashMap<JobId, Set<Watch>> watches = new ConcurrentHashMap<>();

    ReleaseWatch watch(JobId job, Duration pollInterval) {
        Watch watch = new Watch(job, pollInterval);
        watches.computeIfAbsent(job, j -> ConcurrentHashMap.newKeySet()).add(watch);
        return watch;
    }

    void signal(JobId job) {
        Set<Watch> set = watches.get(job);
        if (set != null) {
            set.forEach(Watch::signal);
        }
    }

    private final class Watch implements ReleaseWatch {
        private final JobId job;
        private final long pollNanos;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition released = lock.newCondition();
        private boolean signalled;

        Watch(JobId job, Duration pollInterval) {
            this.job = job;
            this.pollNanos = pollInterval.toNanos();
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
            long nanos = Math.min(max.toNanos(), pollNanos);
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
            watches.computeIfPresent(job, (j, set) -> {
                set.remove(this);
                return set.isEmpty() ? null : set;
            });
        }
    }
}
