package io.jobguard.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Renews live leases every lease/3 on one shared daemon thread (not a thread per lease). A lease
 * counts as lost when the store says it is no longer ours, or when no renewal succeeded for a
 * whole lease period (by this node's monotonic clock, which only measures elapsed time here).
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class KeepAlive implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeepAlive.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final ScheduledThreadPoolExecutor executor;
    private final RateLimitedLog renewFailures = new RateLimitedLog(Clock.systemUTC(), Duration.ofMinutes(1));

    /** Creates the scheduler with its one daemon thread. */
    public KeepAlive() {
        int n = INSTANCES.incrementAndGet();
        executor = DaemonThreads.scheduler("jobguard-keepalive-" + n);
    }

    /** Renews one lease. */
    @FunctionalInterface
    public interface Renewer {
        /**
         * Renews the lease once.
         *
         * @return {@code true} if renewed, {@code false} if the lease is no longer ours
         */
        boolean renew();
    }

    /** A running keep-alive; cancel it when the lease is released. */
    public interface Handle {
        /** Stops renewing; never throws. */
        void cancel();
    }

    /**
     * Starts renewing a lease.
     *
     * @param what   names the lease in log lines
     * @param lease  the lease duration
     * @param renew  renews once
     * @param onLost called once, on the keep-alive thread, when the lease is lost
     * @return the handle to cancel renewal with
     */
    public Handle start(String what, Duration lease, Renewer renew, Runnable onLost) {
        long periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), lease.toNanos() / 3);
        AtomicBoolean done = new AtomicBoolean();
        long[] lastSuccess = {System.nanoTime()};
        ScheduledFuture<?>[] future = new ScheduledFuture<?>[1];
        Runnable task = () -> {
            if (done.get()) {
                return;
            }
            boolean lost;
            try {
                lost = !renew.renew();
                if (!lost) {
                    lastSuccess[0] = System.nanoTime();
                }
            } catch (RuntimeException e) {
                lost = System.nanoTime() - lastSuccess[0] >= lease.toNanos();
                // one line per lease kind and job per minute: a store outage fails every renewal of every lease
                renewFailures.warn(log, what.replaceFirst(" #\\d+$", ""), "job-guard: renewing {} failed ({}); lost={}",
                        what, RateLimitedLog.causeChain(e), lost);
            }
            if (lost && done.compareAndSet(false, true)) {
                cancel(future);
                try {
                    onLost.run();
                } catch (RuntimeException e) {
                    log.warn("job-guard: lease-lost handler of {} threw", what, e);
                }
            }
        };
        synchronized (future) {
            future[0] = executor.scheduleAtFixedRate(task, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        }
        return () -> {
            done.set(true);
            cancel(future);
        };
    }

    private static void cancel(ScheduledFuture<?>[] future) {
        synchronized (future) {
            if (future[0] != null) {
                future[0].cancel(false);
            }
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
