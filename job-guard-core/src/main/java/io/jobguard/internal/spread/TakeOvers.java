package io.jobguard.internal.spread;

import io.jobguard.JobOptions;
import io.jobguard.TakeOverExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The fire times a node left to other nodes, and their take-over: every {@value #CHECK_MILLIS} ms the node drops
 * those their assigned node covered and hands those it did not cover in time to the job's take-over task. One task per
 * job takes its due fire times over one after the other, in order, each a firing that asks the store, so a fire
 * time's take-over never finds an earlier one unhandled and reports it missed. A fire time stays left until its
 * take-over was asked ({@link #earliest}).
 */
final class TakeOvers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TakeOvers.class);

    /** How often left fire times are checked. */
    static final long CHECK_MILLIS = 100;

    /** A fire time left to its assigned node. */
    private record Left(JobOptions job, long fireTime, Runnable body) {
    }

    private final String nodeId;
    private final Supplier<SpreadView> view;
    private final Coverage coverage;
    private final FleetSpread.TakeOver takeOver;
    /** Per job: its fire times left to other nodes, by fire time. */
    private final Map<String, ConcurrentSkipListMap<Long, Left>> left = new ConcurrentHashMap<>();
    /** The jobs whose take-over task runs. */
    private final Set<String> takingOver = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService checker;
    private final ExecutorService tasks;
    private volatile boolean closed;
    private volatile TakeOverExecutor executor = TakeOverExecutor.OWN_THREAD;

    /**
     * Starts checking.
     *
     * @param nodeId   this node
     * @param view     this node's current view of the fleet, null before its first read
     * @param coverage what this node knows decided: a fire time dropped as covered is decided
     * @param takeOver fires a fire time this node takes over
     */
    TakeOvers(String nodeId, Supplier<SpreadView> view, Coverage coverage, FleetSpread.TakeOver takeOver) {
        this.nodeId = nodeId;
        this.view = view;
        this.coverage = coverage;
        this.takeOver = takeOver;
        checker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "job-guard-spread"));
        tasks = Executors.newCachedThreadPool(r -> daemon(r, "job-guard-spread-take-over"));
        checker.scheduleWithFixedDelay(this::check, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Sets where the fire times taken over from now on run. */
    void executor(TakeOverExecutor executor) {
        this.executor = executor;
    }

    /** Keeps a fire time left to the job's assigned node, with the body to run should this node take it over. */
    void leave(JobOptions job, long fireTime, Runnable body) {
        left.computeIfAbsent(job.name(), j -> new ConcurrentSkipListMap<>())
                .putIfAbsent(fireTime, new Left(job, fireTime, body));
    }

    /** Forgets a fire time this node left and then asked for itself (the store answered it). */
    void asked(String job, long fireTime) {
        ConcurrentSkipListMap<Long, Left> times = left.get(job);
        if (times != null) {
            times.remove(fireTime);
        }
    }

    /** The earliest fire time of the job this node left and has not seen decided, null when none. */
    Long earliest(String job) {
        ConcurrentSkipListMap<Long, Left> times = left.get(job);
        Map.Entry<Long, Left> first = times == null ? null : times.firstEntry();
        return first == null ? null : first.getKey();
    }

    /** Why this node takes the fire time over now ({@link SpreadView#takeOverReason}); before any read, at once. */
    private String takeOverReason(String job, long t) {
        SpreadView v = view.get();
        return v == null ? "this node has no view of the fleet" : v.takeOverReason(nodeId, job, t);
    }

    /** Per job, the fire times are taken in order, so a check costs a lookup per job plus one per fire time dropped. */
    private void check() {
        try {
            left.forEach((job, times) -> {
                for (Map.Entry<Long, Left> e = times.firstEntry(); e != null; e = times.higherEntry(e.getKey())) {
                    String why = takeOverReason(job, e.getKey());
                    if (why == null) {
                        dropCovered(job, times, e);
                    } else if (why.isEmpty()) {
                        return; // later fire times are neither covered nor late yet
                    } else {
                        startTakingOver(job, times);
                        return;
                    }
                }
            });
        } catch (RuntimeException e) {
            log.warn("job-guard: the fleet spread's check failed: {}", e.toString());
        }
    }

    private void dropCovered(String job, ConcurrentSkipListMap<Long, Left> times, Map.Entry<Long, Left> e) {
        if (times.remove(e.getKey(), e.getValue())) {
            coverage.decided(job, e.getKey(), false);
        }
    }

    /** Starts the job's take-over task unless it runs. */
    private void startTakingOver(String job, ConcurrentSkipListMap<Long, Left> times) {
        if (closed || !takingOver.add(job)) {
            return;
        }
        try {
            tasks.execute(() -> {
                try {
                    takeOverInOrder(job, times);
                } finally {
                    takingOver.remove(job);
                }
            });
        } catch (RuntimeException e) {
            takingOver.remove(job); // the executor is shut down: the node is closing
        }
    }

    private void takeOverInOrder(String job, ConcurrentSkipListMap<Long, Left> times) {
        for (Map.Entry<Long, Left> e = times.firstEntry(); e != null && !closed; e = times.firstEntry()) {
            String why = takeOverReason(job, e.getKey());
            if (why == null) {
                dropCovered(job, times, e);
                continue;
            }
            if (why.isEmpty()) {
                return;
            }
            Left l = e.getValue();
            log.info("job-guard: job '{}' T={} node={} takes the fire time over: {}", job,
                    Instant.ofEpochMilli(l.fireTime()), nodeId, why);
            try {
                fireAndWait(l);
            } finally {
                times.remove(e.getKey(), l); // one ask per take-over, answered or not
            }
        }
    }

    /**
     * Hands the take-over to the executor and waits until it ended (the next fire time of the job is taken over only
     * then), or until this node closes. An executor that refuses it leaves it to this thread.
     */
    private void fireAndWait(Left l) {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        AtomicBoolean started = new AtomicBoolean();
        Runnable firing = () -> {
            if (!started.compareAndSet(false, true)) {
                return;
            }
            try {
                takeOver.fire(l.job(), Instant.ofEpochMilli(l.fireTime()), l.body());
            } finally {
                ended.complete(null);
            }
        };
        try {
            executor.execute(l.job().name(), firing);
        } catch (RuntimeException e) {
            log.warn("job-guard: job '{}' T={} node={}: the take-over executor refused the firing ({}); it runs on"
                    + " job-guard's take-over thread", l.job().name(), Instant.ofEpochMilli(l.fireTime()), nodeId,
                    e.toString());
            firing.run();
        }
        while (!closed) {
            try {
                ended.get(CHECK_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                // the run goes on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                return; // not completed exceptionally: the firing catches what the run throws
            }
        }
    }

    /** Stops checking; fire times still left to other nodes stay theirs. */
    @Override
    public void close() {
        closed = true;
        checker.shutdownNow();
        tasks.shutdown();
    }
}
