package io.jobguard.internal.redis.fleet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a node knows the fleet read its clock lead before it takes a fire time with it ({@link FleetLeads}): every
 * publication reads the leads hash right after writing, in one atomic script, so another node whose entry was
 * published after this node's publication has read it. A starved reader delays the leader, up to a bound after which
 * the reader has dropped out of the fleet and judges a later loss with the configured window ({@code LossWindows}).
 */
final class LeadAcknowledgements {

    private static final Logger log = LoggerFactory.getLogger(FleetLeads.class);

    /** How often a node waiting for the fleet to read its lead reads the leads hashes again. */
    static final long ACK_POLL_MILLIS = 50;

    /**
     * The longest a node waits for the fleet to read its lead: by then every entry published before its lead is older
     * than the retention, so a node that neither read the lead nor dropped out means this node's own reads failed.
     */
    static final long ACK_WAIT_MILLIS = FleetLeads.RETENTION_MILLIS + 2 * FleetLeads.INTERVAL_MILLIS;

    /** One read of a leads hash: its Redis time, each live entry's published-at, and when the newest read was sent. */
    private record Read(long at, Map<String, Long> publishedAt, long sentNanos) {
    }

    /** Per shard: the latest read of its leads hash (the one with the largest Redis time). */
    private final Map<String, Read> reads = new ConcurrentHashMap<>();

    /**
     * Waits until every other live node has read the lead this node published (a publication sent at or after
     * {@code sent}): a node has read it once its entry's published-at is later than this node's publication on the
     * same hash, since each publication reads the hash right after writing in one atomic script. A node whose entry
     * left the hash (older than {@value FleetLeads#RETENTION_MILLIS} ms) drops out: when it reads again, its reads lie more than
     * the retention apart and it judges a loss after that with the configured window ({@link LossWindows}). Reads
     * again every {@value #ACK_POLL_MILLIS} ms, for at most {@value #ACK_WAIT_MILLIS} ms.
     *
     * @throws IllegalStateException if a node neither read the lead nor dropped out in time, or if interrupted (the
     *                               firing is then a store failure: no fire time is taken unread)
     */
    void await(long sent, Set<String> own, Runnable publishNow) {
        Map<String, Long> published = new HashMap<>();
        Set<String> waiting = new HashSet<>();
        reads.forEach((shard, read) -> {
            if (read.sentNanos() - sent >= 0) {
                published.put(shard, read.at());
                waiting.addAll(read.publishedAt().keySet());
            }
        });
        waiting.removeAll(own);
        long start = System.nanoTime();
        RuntimeException failure = null;
        while (!waiting.isEmpty()) {
            if (System.nanoTime() - start > ACK_WAIT_MILLIS * 1_000_000L) {
                IllegalStateException e = new IllegalStateException("nodes " + waiting + " did not read this node's "
                        + "clock lead within " + ACK_WAIT_MILLIS + " ms");
                if (failure != null) {
                    e.addSuppressed(failure);
                }
                throw e;
            }
            try {
                Thread.sleep(ACK_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the fleet reads this node's clock lead", e);
            }
            long round = System.nanoTime();
            try {
                publishNow.run();
            } catch (RuntimeException e) {
                failure = e; // read again until the bound
                continue;
            }
            Map<String, Read> fresh = new HashMap<>();
            reads.forEach((shard, read) -> {
                if (published.containsKey(shard) && read.sentNanos() - round >= 0) {
                    fresh.put(shard, read);
                }
            });
            if (!fresh.isEmpty()) {
                waiting.removeIf(node -> readOrLeft(node, fresh, published));
            }
        }
        log.debug("job-guard: the fleet read this node's clock lead in {} ms", (System.nanoTime() - start) / 1_000_000L);
    }

    /** Whether the node read this node's publication on some hash, or is in none of the hashes read this round. */
    private static boolean readOrLeft(String node, Map<String, Read> fresh, Map<String, Long> published) {
        boolean present = false;
        for (Map.Entry<String, Read> e : fresh.entrySet()) {
            Long at = e.getValue().publishedAt().get(node);
            if (at != null && at > published.get(e.getKey())) {
                return true;
            }
            present |= at != null;
        }
        if (!present) {
            log.debug("job-guard: node '{}' left the fleet before it read this node's clock lead", node);
        }
        return !present;
    }

    /** Records one read of a shard's leads hash: its Redis time, each entry's published-at, when it was sent. */
    void recordRead(String shard, long at, Map<String, long[]> entries, long sentNanos) {
        Map<String, Long> publishedAt = new HashMap<>();
        entries.forEach((name, e) -> publishedAt.put(name, e[0]));
        reads.merge(shard, new Read(at, Map.copyOf(publishedAt), sentNanos), (old, now) -> new Read(
                now.at() >= old.at() ? now.at() : old.at(), now.at() >= old.at() ? now.publishedAt() : old.publishedAt(),
                Math.max(old.sentNanos(), now.sentNanos())));
    }
}
