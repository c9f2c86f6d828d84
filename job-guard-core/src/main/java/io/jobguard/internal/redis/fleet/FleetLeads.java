package io.jobguard.internal.redis.fleet;

import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.FleetMembers;
import io.jobguard.store.JobId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * This node's half of the fleet's clock leads: every {@value #INTERVAL_MILLIS} ms each node writes its lead and reads
 * everybody's in the same call ({@code fleet-leads.lua}). The leads live in one hash per key prefix, on Redis Cluster
 * one per master ({@link LeadShards}), so at the moment Redis loses its data every node already holds the fleet's
 * leads in memory ({@link LossWindows}). One call per node, hash and interval, whatever the number of jobs.
 *
 * <p>A node publishes before its first admission, and again before an admission once its last publication is older
 * than {@value #STALE_MILLIS} ms, the admission's lead exceeds the one it published, or its wall clock stepped against
 * the monotonic clock by more than {@value #STEP_MILLIS} ms (then it publishes its lead as unknown for a horizon, so
 * that the fleet keeps {@code skew-tolerance} for a loss around the step). When the lead it publishes is above every
 * lead the fleet knows (+ margin), the admission waits until every other live node has read it (its entry published
 * after this node's publication: the same script call wrote it and read the hash) or has left the hash (no
 * publication for {@value #RETENTION_MILLIS} ms), for at most {@value LeadAcknowledgements#ACK_WAIT_MILLIS} ms, else the firing fails as
 * a store failure. A node that left without reading it reads again more than the retention after its previous read,
 * and then judges a loss with the configured window ({@link LossWindows}): no node takes a fire time with a lead
 * that a node judging a later loss from memory did not read.
 */
public final class FleetLeads implements AutoCloseable {

    /** The logger category of releases before the move to this package, which log configurations name. */
    private static final Logger log = LoggerFactory.getLogger(FleetLeads.class);
    private static final LuaScript PUBLISH = LuaScript.load("fleet-leads");

    /** How often each node publishes and reads the fleet's leads. */
    public static final long INTERVAL_MILLIS = 500;
    /** A node whose last publication is older than this publishes again before it takes a fire time. */
    static final long STALE_MILLIS = 3 * INTERVAL_MILLIS;
    /** A jump of the wall clock against the monotonic clock this large counts as a step. */
    static final long STEP_MILLIS = 200;
    /** A step check whose monotonic reads around the wall clock's lie further apart than this is not counted. */
    static final long READ_SPREAD_MILLIS = 50;
    /** Entries older than this are deleted: a node gone this long took no fire time the fleet must cover. */
    public static final long RETENTION_MILLIS = 4 * INTERVAL_MILLIS;

    private final ScriptRunner scripts;
    private final LeadShards shards;
    private final LossWindows windows;
    private final FleetLateness lateness = new FleetLateness();
    private final Set<String> nodes = ConcurrentHashMap.newKeySet();
    private final LeadAcknowledgements acknowledgements = new LeadAcknowledgements();
    /** Per joined node id: what it publishes beside its lead ({@link #join}). */
    private final Map<String, Supplier<String>> memberPublications = new ConcurrentHashMap<>();
    private final List<Consumer<FleetMembers>> viewers = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private volatile ScheduledExecutorService timer;
    private volatile long lastPublishNanos;
    private volatile boolean published;
    private volatile long lastPublishedLead = Long.MIN_VALUE;
    private volatile LongSupplier wall = System::currentTimeMillis;
    private long wallMinusNano = Long.MIN_VALUE;
    /** A step seen (by the periodic check or an admission) that no admission has yet published and waited for. */
    private boolean stepUnannounced;

    public FleetLeads(ScriptRunner scripts, LeadShards shards, LossWindows windows) {
        this.scripts = scripts;
        this.shards = shards;
        this.windows = windows;
    }

    /**
     * Makes sure the fleet knows a lead that covers this admission before it is sent: starts the periodic publication
     * for a node id seen for the first time; publishes now when the last publication is stale, the clock stepped, or
     * this admission's lead (its fire time minus Redis' clock as this node estimates it) exceeds the lead it published;
     * and when the lead it publishes is not covered by the fleet's largest known lead + margin (or is unknown), waits
     * until every other live node has read it or left the fleet before the fire time can be taken. For a job whose
     * epoch this node never saw it also publishes (and so reads the fleet's lineage) now: only the lineage tells this
     * node a loss from a new job, and its last read may predate a loss by up to one interval.
     *
     * @param nodeId                the node about to take a fire time
     * @param nominalFireTimeMillis the fire time
     * @param jobUnseen             whether this node never saw the job's epoch
     * @return whether this node published
     * @throws RuntimeException if the publication fails, or the fleet neither read the lead nor left within
     *                          {@value LeadAcknowledgements#ACK_WAIT_MILLIS} ms (the firing is then a store failure)
     */
    public boolean beforeAdmission(String nodeId, long nominalFireTimeMillis, boolean jobUnseen) {
        boolean first = nodes.add(nodeId);
        if (first && timer == null) {
            start();
        }
        checkStep();
        boolean stepped = takeUnannouncedStep();
        if (first || !published) {
            publishNow(); // measures the clock offset against Redis
        }
        long redisNow = windows.redisNow();
        if (redisNow >= 0) {
            windows.granted(nominalFireTimeMillis, redisNow); // the lead this admission may have, counted before it is sent
        }
        long lead = windows.publishedLead();
        // a lead above the published one by more than scheduler jitter (the margin covers the rest)
        boolean grown = lead < 0 ? lastPublishedLead >= 0 : lead > lastPublishedLead + GROWTH_MILLIS;
        if (first || stepped || grown || System.nanoTime() - lastPublishNanos > STALE_MILLIS * 1_000_000L) {
            long sent = System.nanoTime();
            publishNow();
            if (lead < 0 || lead > windows.fleetMax(nodes) + LossWindows.MARGIN_MILLIS) {
                acknowledgements.await(sent, nodes, this::publishNow);
            }
            return true;
        }
        if (jobUnseen) {
            publishNow();
            return true;
        }
        return false;
    }

    /**
     * After this node learned of a loss of the job's history (a first {@code HISTORY_LOST} reply for a new epoch):
     * waits, at most {@value #MAX_JUDGE_WAIT_MILLIS} ms, until every live node has re-published its lead after the
     * loss and this node has read it, when that may narrow the refusal.
     *
     * @param job   the job
     * @param epoch the lost epoch's creation (Redis millis)
     * @return whether to judge the fire time once more
     */
    public boolean awaitRepublication(JobId job, String epoch) {
        long until = windows.worthWaitingUntil(job, epoch);
        if (until < 0) {
            return false;
        }
        long wait = until - windows.redisNow();
        if (wait > MAX_JUDGE_WAIT_MILLIS) {
            return false;
        }
        try {
            if (wait > 0) {
                Thread.sleep(wait);
            }
            publishNow();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The longest a firing waits for the fleet's re-publication after a loss (one interval + margin + slack). */
    static final long MAX_JUDGE_WAIT_MILLIS = 2_000;

    /** A lead this much above the published one is published before the admission (the margin covers less). */
    static final long GROWTH_MILLIS = 100;


    /**
     * Joins a node id to the periodic publication before its first admission: from now on each publication carries
     * what {@code publication} returns for it, and {@code viewer} receives every read of the fleet's members.
     *
     * @param nodeId      the node
     * @param publication read at each publication ({@code ""}: nothing)
     * @param viewer      receives each read
     */
    public void join(String nodeId, Supplier<String> publication, Consumer<FleetMembers> viewer) {
        memberPublications.put(nodeId, publication);
        viewers.add(viewer);
        nodes.add(nodeId);
        if (timer == null) {
            start();
        }
    }

    /**
     * Records a regular ask of this node (not a catch-up or a retry): how late it fires, which the fleet reads at this
     * node's next publication.
     *
     * @param nominalFireTimeMillis the fire time asked for
     */
    public void regularAsk(long nominalFireTimeMillis) {
        long redisNow = windows.redisNow();
        if (redisNow >= 0) {
            lateness.asked(nominalFireTimeMillis, redisNow);
        }
    }

    /**
     * The latest fire time (Redis millis) that every live node firing later than this one has reached
     * ({@link FleetLateness}), or {@link Long#MAX_VALUE} when no live node fires later or the fleet was never read.
     *
     * @return the fire time
     */
    public long reachedByLaterNodes() {
        long redisNow = windows.redisNow();
        return redisNow < 0 ? Long.MAX_VALUE
                : lateness.reachedByLaterNodes(nodes, redisNow, ownLateness(), RETENTION_MILLIS);
    }

    private long ownLateness() {
        long redisNow = windows.redisNow();
        return redisNow < 0 ? -windows.offset() : lateness.own(redisNow, windows.offset());
    }

    /** Replaces the wall clock this node's offset and steps are read from (tests step it). */
    public void wallClock(LongSupplier clock) {
        this.wall = clock; // the next check sees the difference as a step
    }

    private synchronized void start() {
        if (timer != null) {
            return;
        }
        ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "job-guard-fleet-leads");
            thread.setDaemon(true);
            return thread;
        });
        t.scheduleAtFixedRate(this::tick, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        timer = t;
    }

    private void tick() {
        try {
            checkStep();
            publishNow();
        } catch (RuntimeException e) {
            log.debug("job-guard: could not publish this node's clock lead: {}", e.toString());
        }
    }

    /**
     * Whether a step was seen since the last admission: the periodic check may see it first and publish the unknown
     * lead, but only an admission waits until every node has read it, so the next admission announces it.
     */
    private boolean takeUnannouncedStep() {
        synchronized (lock) {
            boolean stepped = stepUnannounced;
            stepUnannounced = false;
            return stepped;
        }
    }

    /**
     * Notes a step of the wall clock since the last check; a step marks this node's lead unknown for a while. The wall
     * clock is read between two monotonic reads: a thread paused between them (a GC pause, a starved CPU) would look
     * like a step, so a check whose reads lie more than {@value #READ_SPREAD_MILLIS} ms apart is not counted.
     */
    private void checkStep() {
        long readStart = System.nanoTime();
        long wallMillis = wall.getAsLong();
        long readEnd = System.nanoTime();
        if (readEnd - readStart > READ_SPREAD_MILLIS * 1_000_000L) {
            return;
        }
        long now = wallMillis - (readStart + (readEnd - readStart) / 2) / 1_000_000L;
        synchronized (lock) {
            long before = wallMinusNano;
            wallMinusNano = now;
            if (before != Long.MIN_VALUE && Math.abs(now - before) > STEP_MILLIS) {
                windows.clockStepped(System.nanoTime());
                stepUnannounced = true;
                log.warn("job-guard: this node's wall clock stepped by {} ms; its clock lead is published as unknown, so a "
                        + "loss of Redis' data in the next minutes keeps skew-tolerance", now - before);
            }
        }
    }

    /**
     * Publishes every node id of this store to every leads hash ({@link LeadShards}) and records the replies as views
     * of the fleet. A hash that cannot be written (its Redis Cluster master is down) is passed over: every hash carries
     * the same leads, and that master's jobs cannot be admitted meanwhile anyway.
     *
     * @throws RuntimeException if no hash could be written
     */
    void publishNow() {
        RuntimeException failure = null;
        boolean any = false;
        MemberRead read = new MemberRead();
        for (LeadShards.Shard shard : shards.current()) {
            try {
                for (String node : nodes) {
                    publish(shard, node, read);
                }
                any = true;
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (!any && failure != null) {
            throw failure;
        }
        lastPublishNanos = System.nanoTime();
        published = true;
        if (any && !viewers.isEmpty()) {
            FleetMembers members = read.members();
            for (Consumer<FleetMembers> viewer : viewers) {
                viewer.accept(members);
            }
        }
    }


    private void publish(LeadShards.Shard shard, String node, MemberRead read) {
        long sentNanos = System.nanoTime();
        long sent = wall.getAsLong();
        long lead = windows.publishedLead();
        Supplier<String> member = memberPublications.get(node);
        List<Object> reply = scripts.run(PUBLISH, ReturnType.MULTI, List.of(shard.key()), List.of(node,
                Long.toString(lead), Long.toString(RETENTION_MILLIS), windows.lineage(shard.name()),
                Long.toString(ownLateness()), member == null ? "" : member.get()));
        long at = ScriptRunner.number(reply.get(0));
        lastPublishedLead = lead;
        // this node's clock minus Redis': a fire time taken now on time has about this lead
        windows.offset((sent + wall.getAsLong()) / 2 - at);
        String lineage = ScriptRunner.text(reply.get(1));
        Map<String, long[]> entries = new HashMap<>();
        for (int i = 2; i + 1 < reply.size(); i += 2) {
            String name = ScriptRunner.text(reply.get(i));
            // '<published at>|<lead>', and '|<lateness>' from nodes that publish it
            String[] fields = ScriptRunner.text(reply.get(i + 1)).split("\\|", -1);
            try {
                long publishedAt = Long.parseLong(fields[0]);
                entries.put(name, new long[] {publishedAt, Long.parseLong(fields[1])});
                if (fields.length > 2 && !fields[2].isEmpty()) {
                    lateness.viewed(name, publishedAt, Long.parseLong(fields[2]));
                }
                read.entry(at, name, publishedAt, fields);
            } catch (RuntimeException e) {
                entries.put(name, new long[] {at, -1});
            }
        }
        windows.fleetViewed(at, shard.name(), lineage, entries);
        acknowledgements.recordRead(shard.name(), at, entries, sentNanos);
    }


    /**
     * Publishes once more as this node leaves (graceful shutdown), if it ever published: when Redis lost its data
     * since this node's last publication, the re-created leads hash is marked {@code lost} now, so the nodes that start
     * after this one (knowing nothing of the fleet before the loss) treat the job's history as lost and refuse what
     * may have run before the loss, instead of taking an empty Redis for a new one. Once per store: tries for up to
     * {@value #FAREWELL_MILLIS} ms while Redis cannot be reached (then logged at DEBUG). Never throws.
     */
    public void farewell() {
        farewell(FAREWELL_MILLIS);
    }

    private void farewell(long tryMillis) {
        if (!published || nodes.isEmpty() || farewellSent) {
            return;
        }
        long deadline = System.nanoTime() + tryMillis * 1_000_000L;
        while (true) {
            try {
                publishNow();
                farewellSent = true;
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() >= deadline) {
                    log.debug("job-guard: could not publish this node's clock lead at shutdown: {}", e.toString());
                    return;
                }
            }
            try {
                Thread.sleep(FAREWELL_RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How long {@link #farewell} tries to reach Redis. */
    static final long FAREWELL_MILLIS = 1_000;
    private static final long FAREWELL_RETRY_MILLIS = 100;
    private volatile boolean farewellSent;

    /**
     * Stops the periodic publication after a last one ({@link #farewell}), unless it was sent: one attempt, since the
     * connections may already be stopping (a Spring context sends it earlier, from the lease hand-over).
     */
    @Override
    public void close() {
        ScheduledExecutorService t = timer;
        if (t != null) {
            t.shutdownNow();
        }
        farewell(0);
    }
}
