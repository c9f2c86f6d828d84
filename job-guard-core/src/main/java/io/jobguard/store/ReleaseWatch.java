package io.jobguard.store;

import java.time.Duration;

/**
 * A registration for release notifications of one resource, opened before an attempt so that a
 * release between the attempt and the wait is not missed.
 */
public interface ReleaseWatch extends AutoCloseable {

    /**
     * Waits until a release of the watched resource is signalled or the time is up; a signal that
     * arrived since the previous call returns at once.
     *
     * @param max the longest time to wait
     * @return {@code true} if a release was signalled, {@code false} on time-out
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    boolean await(Duration max) throws InterruptedException;

    /** Stops watching; never throws. */
    @Override
    void close();
}
