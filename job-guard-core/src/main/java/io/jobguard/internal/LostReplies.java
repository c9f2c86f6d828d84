package io.jobguard.internal;

import io.jobguard.store.LeaseStore;
import io.jobguard.store.RunLeaseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Acquire attempts whose reply never came (time-out, reset), and the leases they may have left.
 *
 * <p>The command may have run in the store: then a lease carrying the attempt's owner token blocks the job
 * until its TTL, although no run holds it. The node knows the token it sent, so it releases that lease,
 * owner-checked (never someone else's), on its next contact with the store: before its next admission and
 * from a background retry soon after the failure. A lost reply then costs the one firing, not the lease.
 * An attempt is forgotten once released, once the store says it holds no such lease, or once its lease
 * would have expired anyway.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class LostReplies {

    private static final Logger log = LoggerFactory.getLogger(LostReplies.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(500);
    private static final Duration MAX_RETRY = Duration.ofSeconds(5);

    private final LeaseStore store;
    private final KeepAlive background;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /**
     * Creates the registry.
     *
     * @param store      where the leases live
     * @param background runs the retries off the caller's thread
     */
    public LostReplies(LeaseStore store, KeepAlive background) {
        this.store = store;
        this.background = background;
    }

    /**
     * Records an acquire attempt that failed without a reply and schedules the first retry.
     *
     * @param request   the attempt
     * @param sentNanos when its command was sent ({@link System#nanoTime()})
     */
    public void remember(RunLeaseRequest request, long sentNanos) {
        Pending entry = new Pending(request, sentNanos + request.lease().toNanos());
        pending.put(request.ownerToken(), entry);
        schedule(entry, FIRST_RETRY);
    }

    /** Tries once to release every recorded lease; never throws. Called before an admission. */
    public void reconcile() {
        for (Pending entry : pending.values()) {
            attempt(entry);
        }
    }

    /**
     * How many attempts are still waiting to be reconciled.
     *
     * @return the count
     */
    public int size() {
        return pending.size();
    }

    private void schedule(Pending entry, Duration delay) {
        background.runLater(delay, () -> {
            if (!attempt(entry)) {
                schedule(entry, delay.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : delay.multipliedBy(2));
            }
        });
    }

    /** @return {@code true} when the entry is settled (or was already) */
    private boolean attempt(Pending entry) {
        RunLeaseRequest request = entry.request;
        if (pending.get(request.ownerToken()) != entry) {
            return true;
        }
        if (System.nanoTime() - entry.expiresNanos >= 0) {
            pending.remove(request.ownerToken(), entry);
            return true;
        }
        try {
            // No cool-down: the run never ran. The fire-time marker stays, so the firing itself is not repeated.
            boolean released = store.releaseRun(request, Duration.ZERO);
            pending.remove(request.ownerToken(), entry);
            if (released) {
                log.info("job-guard: job '{}' T={} node={} released the lease left by an acquire whose reply was"
                        + " lost; the next fire time can run", request.job().name(), request.nominalFireTime(),
                        request.nodeId());
            }
            return true;
        } catch (RuntimeException e) {
            log.debug("job-guard: job '{}' lease of a lost acquire reply not released yet: {}", request.job().name(),
                    e.toString());
            return false;
        }
    }

    private record Pending(RunLeaseRequest request, long expiresNanos) {
    }
}
