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

    /**
     * The watch of a store that cannot signal releases: {@link #await} sleeps the whole wait and answers
     * {@code false}, so that a waiting firing polls the store once per wait.
     *
     * @return a watch that never signals
     */
    static ReleaseWatch never() {
        return new ReleaseWatch() {
            @Override
            public boolean await(Duration max) throws InterruptedException {
                Thread.sleep(max.toMillis(), (int) (max.toNanos() % 1_000_000L));
                return false;
            }

            @Override
            public void close() {
                // nothing was registered
            }
        };
    }
}
