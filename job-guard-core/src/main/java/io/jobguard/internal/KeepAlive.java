package io.jobguard.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Renews live leases every lease/3 and reports each lost lease no later than its {@link LeaseDeadline}.
 *
 * <p>One daemon thread only schedules: it never waits on the store. Each renewal runs on a thread of its
 * own (from a pool of daemon threads that grows with the number of renewals in flight), so a renewal that
 * hangs on a stalled connection delays neither another lease's renewal nor any loss detection. A lease is
 * lost when the store says it is no longer ours, or when its deadline (send time of the last successful
 * acquire or renewal, plus the lease, minus a margin) passes: a watchdog on the scheduling thread fires at
 * the deadline whatever the renewal in flight is doing. At most one renewal per lease is in flight.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class KeepAlive implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeepAlive.class);

    /**
     * The period of a task that does nothing and keeps the scheduling thread's next wake-up at most this far
     * away. A scheduler wakes its parked thread when a new task becomes the first due; with the queue otherwise
     * empty (a job firing alone, its previous run's tasks cancelled and removed), every run's renewal would, and
     * the admitting thread would pay for that wake-up: on a virtual machine whose other core idles, about
     * 0.25 ms per firing a period apart (examples/benchmarks, firings across a link). With this task due first,
     * renewals and watchdogs due later than it (leases above three periods) are queued without a wake-up.
     */
    private static final Duration IDLE_WAKE_UP = Duration.ofSeconds(1);

    private final ScheduledThreadPoolExecutor scheduler;
    private final ExecutorService renewals;
    /** A store outage fails every renewal of every lease: one WARN per lease kind and job per minute. */
    private final RateLimitedLog renewFailures = new RateLimitedLog(Clock.systemUTC(), Duration.ofMinutes(1));

    /** Creates the scheduling thread and the (initially empty) renewal pool. */
    public KeepAlive() {
        // the identity hash tells one engine's threads from another's without a static counter
        String n = Integer.toHexString(System.identityHashCode(this));
        scheduler = DaemonThreads.scheduler("jobguard-keepalive-" + n);
        renewals = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.named("jobguard-renew-" + n));
        scheduler.scheduleAtFixedRate(() -> { }, IDLE_WAKE_UP.toNanos(), IDLE_WAKE_UP.toNanos(), TimeUnit.NANOSECONDS);
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
     * Starts renewing a lease acquired just now.
     *
     * @param what   names the lease in log lines
     * @param lease  the lease duration
     * @param renew  renews once
     * @param onLost called once, on a keep-alive thread, when the lease is lost
     * @return the handle to cancel renewal with
     */
    public Handle start(String what, Duration lease, Renewer renew, Runnable onLost) {
        return start(what, lease, LeaseDeadline.startingAt(System.nanoTime(), lease), renew, why -> onLost.run());
    }

    /**
     * Starts renewing a lease whose deadline is already known.
     *
     * @param what     names the lease in log lines
     * @param lease    the lease duration
     * @param deadline the lease's deadline, moved by every successful renewal
     * @param renew    renews once
     * @param onLost   called once, on a keep-alive thread, with the reason, when the lease is lost
     * @return the handle to cancel renewal with
     */
    public Handle start(String what, Duration lease, LeaseDeadline deadline, Renewer renew, Consumer<String> onLost) {
        Renewal renewal = new Renewal(what, deadline, renew, onLost);
        long periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), lease.toNanos() / 3);
        synchronized (renewal) {
            renewal.tick = scheduler.scheduleAtFixedRate(renewal::tick, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
            renewal.watchdog = scheduler.schedule(renewal::watch, Math.max(0, deadline.nanosLeft()), TimeUnit.NANOSECONDS);
        }
        return renewal;
    }

    /**
     * Runs a task that may block on the store, after a delay, off the scheduling thread.
     *
     * @param delay how long to wait first
     * @param task  the task; exceptions are logged at DEBUG
     */
    public void runLater(Duration delay, Runnable task) {
        try {
            scheduler.schedule(() -> submit(task), delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("job-guard: keep-alive closed, task dropped");
        }
    }

    private boolean submit(Runnable task) {
        try {
            renewals.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.debug("job-guard: background task failed: {}", e.toString());
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        renewals.shutdownNow();
    }

    private final class Renewal implements Handle {
        private final String what;
        private final LeaseDeadline deadline;
        private final Renewer renewer;
        private final Consumer<String> onLost;
        private final AtomicBoolean done = new AtomicBoolean();
        private final AtomicBoolean inFlight = new AtomicBoolean();
        private ScheduledFuture<?> tick;
        private ScheduledFuture<?> watchdog;

        Renewal(String what, LeaseDeadline deadline, Renewer renewer, Consumer<String> onLost) {
            this.what = what;
            this.deadline = deadline;
            this.renewer = renewer;
            this.onLost = onLost;
        }

        /** On the scheduling thread: hands one renewal to the pool unless one is still in flight. */
        void tick() {
            if (done.get() || !inFlight.compareAndSet(false, true)) {
                return;
            }
            if (!submit(this::renewOnce)) {
                inFlight.set(false);
            }
        }

        /** On a renewal thread: may block as long as the store's command timeout. */
        void renewOnce() {
            try {
                long sent = deadline.now();
                boolean renewed;
                try {
                    renewed = renewer.renew();
                } catch (RuntimeException e) {
                    // The watchdog decides when this becomes a loss: at the deadline, not at the command timeout.
                    renewFailures.warn(log, what.replaceFirst(" #\\d+$", ""),
                            "job-guard: renewing {} failed ({}); {} ms left before its deadline", what,
                            RateLimitedLog.causeChain(e), TimeUnit.NANOSECONDS.toMillis(deadline.nanosLeft()));
                    return;
                }
                if (!renewed) {
                    lost("the store no longer holds it for this run");
                } else if (!deadline.extendFrom(sent)) {
                    lost("the renewal's reply came after the lease deadline");
                }
            } finally {
                inFlight.set(false);
            }
        }

        /** On the scheduling thread, at the deadline: lost unless a renewal moved it meanwhile. */
        void watch() {
            if (done.get()) {
                return;
            }
            long left = deadline.nanosLeft();
            if (left > 0) {
                synchronized (this) {
                    if (!done.get()) {
                        watchdog = scheduler.schedule(this::watch, left, TimeUnit.NANOSECONDS);
                    }
                }
                return;
            }
            lost("no renewal succeeded before the lease deadline");
        }

        void lost(String why) {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            stop();
            try {
                onLost.accept(why);
            } catch (RuntimeException e) {
                log.warn("job-guard: lease-lost handler of {} threw", what, e);
            }
        }

        @Override
        public void cancel() {
            done.set(true);
            stop();
        }

        private synchronized void stop() {
            if (tick != null) {
                tick.cancel(false);
            }
            if (watchdog != null) {
                watchdog.cancel(false);
            }
        }
    }
}
