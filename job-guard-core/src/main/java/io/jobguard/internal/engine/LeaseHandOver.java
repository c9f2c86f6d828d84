package io.jobguard.internal.engine;


import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The guarded runs going on in one engine, for a graceful shutdown: waits for them to finish, then gives up the
 * leases of those still running, so that another node can run the next fire time without waiting for the TTL.
 */
final class LeaseHandOver {

    private static final Logger log = LoggerFactory.getLogger(LeaseHandOver.class);

    private final Set<RunPermit> live = ConcurrentHashMap.newKeySet();
    private final Object changed = new Object();

    void started(RunPermit permit) {
        live.add(permit);
    }

    void ended(RunPermit permit) {
        live.remove(permit);
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    /**
     * Waits up to {@code wait} for the live runs to end, then hands each one still running to {@code giveUp}.
     *
     * @return the runs given up
     */
    List<RunPermit> awaitThenGiveUp(Duration wait, Consumer<RunPermit> giveUp)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (changed) {
            while (!live.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                changed.wait(Math.max(1, left / 1_000_000));
            }
        }
        List<RunPermit> givenUp = new ArrayList<>();
        for (RunPermit permit : live) {
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
}
