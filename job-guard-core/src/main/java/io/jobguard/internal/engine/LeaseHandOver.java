package io.jobguard.internal.engine;


import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The guarded runs going on in one engine, for a graceful shutdown: closes admission, waits for the admissions
 * under way and for the runs to finish, then gives up the leases of those still running, so that another node
 * can run the next fire time without waiting for the TTL. Once admission is closed no firing of this engine
 * asks the store for a lease, so no run can start holding a lease that the store, closed right after, could no
 * longer release; the other nodes run those fire times.
 */
final class LeaseHandOver {

    private static final Logger log = LoggerFactory.getLogger(LeaseHandOver.class);

    /** How long a hand-over waits at least for admissions under way (one acquire each) before it gives up. */
    static final Duration ADMISSIONS_WAIT = Duration.ofSeconds(10);

    private final Set<EnginePermit> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger admitting = new AtomicInteger();
    private volatile boolean closed;
    private final Object changed = new Object();

    /**
     * Enters an admission: {@code false} once the hand-over has closed admission (the firing must not ask the store
     * for a lease). Each {@code true} is paired with one {@link #leave()}.
     */
    boolean enter() {
        admitting.incrementAndGet();
        if (closed) {
            leave();
            return false;
        }
        return true;
    }

    /** Ends an admission entered with {@link #enter()}; a permit it granted is live by now. */
    void leave() {
        if (admitting.decrementAndGet() == 0 && closed) {
            signal();
        }
    }

    /** Opens admission again after a hand-over (the store's connections were started again). */
    void reopen() {
        closed = false;
    }

    /** Whether the hand-over has closed admission. */
    boolean closed() {
        return closed;
    }

    void started(EnginePermit permit) {
        live.add(permit);
    }

    void ended(EnginePermit permit) {
        live.remove(permit);
        signal();
    }

    private void signal() {
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    /**
     * Closes admission, waits for the admissions under way (at least {@link #ADMISSIONS_WAIT}) and then up to
     * {@code wait} for the live runs to end, then hands each one still running to {@code giveUp}.
     *
     * @return the runs given up
     */
    List<EnginePermit> awaitThenGiveUp(Duration wait, Consumer<EnginePermit> giveUp)
            throws InterruptedException {
        closed = true;
        long start = System.nanoTime();
        long deadline = start + wait.toNanos();
        long admissionsDeadline = start + Math.max(wait.toNanos(), ADMISSIONS_WAIT.toNanos());
        synchronized (changed) {
            while (admitting.get() > 0 && await(admissionsDeadline)) {
                // a permit granted by an admission under way is live once the admission ends
            }
            while (!live.isEmpty() && await(deadline)) {
                // runs that end now release their leases as usual
            }
        }
        if (admitting.get() > 0) {
            log.warn("job-guard: {} admission(s) still waiting for the store after {}; a lease they are granted"
                    + " may expire by TTL", admitting.get(), ADMISSIONS_WAIT);
        }
        List<EnginePermit> givenUp = new ArrayList<>();
        for (EnginePermit permit : live) {
            if (permit.guarded()) {
                givenUp.add(permit);
                try {
                    giveUp.accept(permit);
                } catch (RuntimeException e) {
                    log.warn("job-guard: giving up the lease of job '{}' failed: {}", permit.options().name(),
                            e.toString());
                }
            }
        }
        return givenUp;
    }

    /** Waits on {@link #changed} (held) until signalled or {@code deadline}; {@code false} once it has passed. */
    private boolean await(long deadline) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return false;
        }
        changed.wait(Math.max(1, left / 1_000_000));
        return true;
    }
}
