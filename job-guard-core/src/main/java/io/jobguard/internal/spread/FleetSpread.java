package io.jobguard.internal.spread;

import io.jobguard.FireTimeSchedule;
import io.jobguard.GuardType;
import io.jobguard.JobOptions;
import io.jobguard.TakeOverExecutor;
import io.jobguard.store.FleetMembers;
import io.jobguard.store.FleetView;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One node's part in the fleet spread. Each node publishes, with its clock lead, the jobs it declared (a digest), the
 * live fleet it sees (a digest of the node ids that declared the same jobs) and its coverage ({@link Coverage}). All
 * nodes that see the same fleet assign each job to the same node ({@link Assignment}). A regular fire time of a job
 * assigned to another node is left to it ({@link #leaveToAssignedNode}): this node sends nothing for it, and drops it
 * once it reads that node's coverage, published under the same fleet, reaching the fire time. It takes the fire time
 * over ({@link TakeOvers}: asks the store itself) as soon as that node is not live or this node became the assigned one, and at the
 * latest {@value #GRACE_MILLIS} ms after that node's own lateness past the fire time, by Redis' clock. A node that
 * has not read the fleet within {@value #FRESH_MILLIS} ms leaves nothing to others: it asks.
 */
public final class FleetSpread implements AutoCloseable {

    /** A view of the fleet older than this leaves no fire time to another node. */
    static final long FRESH_MILLIS = 1_500;
    /**
     * How long past the assigned node's lateness a left fire time waits for its coverage: that node's next
     * publication (every 500 ms) and this node's next read (every 500 ms), with a second of slack for a loaded
     * machine. Past it, this node takes the fire time over.
     */
    public static final long GRACE_MILLIS = 2_000;
    /** A read of the fleet and a check, past the grace: how long after its deadline a take-over may start. */
    static final long TAKE_OVER_SLACK_MILLIS = 1_000;

    /** Runs a fire time this node takes over: a regular firing that asks the store whatever the assignment. */
    @FunctionalInterface
    public interface TakeOver {
        /**
         * Fires the job at the fire time, asking the store.
         *
         * @param job             the job
         * @param nominalFireTime the fire time
         * @param body            the work of the run
         */
        void fire(JobOptions job, Instant nominalFireTime, Runnable body);
    }

    /** The jobs this node declared: each eligible one by name, and the first fire time it answers for. */
    private record Catalog(Map<String, JobOptions> jobs, String digest, long from) {
        static final Catalog NONE = new Catalog(Map.of(), "", Long.MAX_VALUE);
    }

    private final String nodeId;
    private final FleetView fleet;
    private final Clock clock;
    private final TakeOver takeOver;
    private final Coverage coverage;
    private volatile Catalog catalog = Catalog.NONE;
    private volatile SpreadView view;
    private final Object viewLock = new Object();
    private volatile boolean joined;
    private volatile boolean closed;
    private volatile boolean leaving;
    /** The fire times this node left, from its first declaration of a spread job on. */
    private volatile TakeOvers takeOvers;

    /**
     * @param nodeId   this node
     * @param fleet    the store's fleet publications
     * @param clock    this node's clock: its fire times from the moment of a declaration on are its to answer for
     * @param holdMillis how long a fire time asked for without an answer holds this node's coverage below it: longer
     *                 than any node waits for it (the skew tolerance bounds a node's lateness, plus twice the grace)
     * @param takeOver fires a fire time this node takes over
     */
    public FleetSpread(String nodeId, FleetView fleet, Clock clock, long holdMillis, TakeOver takeOver) {
        this.nodeId = nodeId;
        this.coverage = new Coverage(holdMillis);
        this.fleet = fleet;
        this.clock = clock;
        this.takeOver = takeOver;
    }

    /**
     * Whether a job can be spread: a grid of fire times the same on every node, and RETURN (a WAIT firing's wait for a
     * busy lease is its own; it asks as before).
     *
     * @param job the job
     * @return {@code true} when its regular fire times can be left to one node
     */
    public static boolean spreadable(JobOptions job) {
        return job.type() == GuardType.RETURN && job.recovery() != null && job.recovery().schedule() != null;
    }

    /**
     * Declares the jobs this node fires on a schedule, replacing an earlier declaration; joins the fleet's
     * publications at the first.
     *
     * @param jobs      the jobs
     * @param executor  runs the fire times this node takes over
     * @return the names of the jobs spread, or none when the store carries no member publications
     */
    public synchronized Set<String> declare(Collection<JobOptions> jobs, TakeOverExecutor executor) {
        Map<String, JobOptions> spread = new LinkedHashMap<>();
        for (JobOptions job : jobs) {
            if (spreadable(job)) {
                spread.put(job.name(), job);
            }
        }
        catalog = spread.isEmpty() ? Catalog.NONE
                : new Catalog(Map.copyOf(spread), Assignment.digest(spread.keySet()), clock.millis());
        if (!joined && !spread.isEmpty() && !closed) {
            // checking before joining: a read of the fleet may reach this node, and a firing leave a fire time, at once
            TakeOvers started = new TakeOvers(nodeId, () -> view, coverage, takeOver);
            takeOvers = started;
            if (!fleet.joinFleet(nodeId, this::publication, this::viewed)) {
                started.close();
                takeOvers = null;
                catalog = Catalog.NONE;
                return Set.of();
            }
            joined = true;
        }
        if (takeOvers != null) {
            takeOvers.executor(executor);
        }
        return Set.copyOf(catalog.jobs().keySet());
    }

    /**
     * At a regular firing: leaves the fire time to the job's assigned node when that is another live node of a fresh
     * view; this node then sends nothing for it, unless it takes it over later.
     *
     * @param job             the job
     * @param nominalFireTime the fire time
     * @param body            the run's work, should this node take the fire time over
     * @return {@code true} when left to another node (the firing ends {@code ASSIGNED_ELSEWHERE} here)
     */
    public boolean leaveToAssignedNode(JobOptions job, Instant nominalFireTime, Runnable body) {
        SpreadView v = view;
        TakeOvers t = takeOvers;
        if (closed || leaving || v == null || t == null || !v.fresh() || !catalog.jobs().containsKey(job.name())) {
            return false;
        }
        String assigned = v.assignment().get(job.name());
        if (assigned == null || assigned.equals(nodeId) || !v.members().containsKey(assigned)) {
            return false;
        }
        t.leave(job, nominalFireTime.toEpochMilli(), body);
        fleet.firedWithoutAsking(nominalFireTime);
        return true;
    }

    /**
     * Records that the store answered an ask for the job's fire time (granted or refused): a fire time this node left
     * to another node and then asked for itself is no longer left.
     *
     * @param job             the job name
     * @param nominalFireTime the fire time
     * @param settlesEarlier  whether the answer shows every earlier fire time handled (a grant, or taken already)
     */
    public void decided(String job, Instant nominalFireTime, boolean settlesEarlier) {
        coverage.decided(job, nominalFireTime.toEpochMilli(), settlesEarlier);
        TakeOvers t = takeOvers;
        if (t != null) {
            t.asked(job, nominalFireTime.toEpochMilli());
        }
    }

    /**
     * Records that a run of this node ended: the fire times of the job that passed while it held the job's lease, up to
     * the job's busy grace before the end, were busy for every node (a RETURN firing then is refused {@code BUSY}), so
     * they are decided. This node's scheduler may not have fired them at all (its thread ran the job), and the other
     * nodes, which left them to this node, must not take them over and run them late.
     *
     * Only when no fire time lies between the run's own and its start (a run taken over late leaves those undecided).
     *
     * @param job             the job name
     * @param nominalFireTime the run's fire time
     * @param runTime         how long the run took (it ended now)
     */
    public void ran(String job, Instant nominalFireTime, Duration runTime) {
        JobOptions options = catalog.jobs().get(job);
        if (options == null) {
            return;
        }
        Instant now = clock.instant();
        Instant start = now.minus(runTime);
        Instant busyUntil = now.minus(options.busyGrace());
        FireTimeSchedule schedule = options.recovery().schedule();
        Instant first = schedule.next(nominalFireTime);
        if (first == null || !first.isAfter(start)) {
            return;
        }
        Instant last = null;
        for (Instant t = first; t != null && !t.isAfter(busyUntil); t = schedule.next(t)) {
            last = t;
        }
        if (last != null) {
            coverage.decided(job, last.toEpochMilli(), false);
        }
    }

    /** Records a regular ask the store did not answer: the fire time may be undecided. */
    public void unanswered(String job, Instant nominalFireTime) {
        coverage.unanswered(job, nominalFireTime.toEpochMilli());
    }

    /**
     * The node the job is assigned to in this node's current view of the fleet.
     *
     * @param job the job name
     * @return the node id, empty when the job is not spread or the view is not fresh
     */
    public Optional<String> assignedNode(String job) {
        SpreadView v = view;
        return v == null || !v.fresh() ? Optional.empty() : Optional.ofNullable(v.assignment().get(job));
    }

    /**
     * Marks this node as leaving (its admission closed for a graceful shutdown) or back: a leaving node publishes no
     * spread, so the others drop it from their view at their next read and take its jobs over at once, and it leaves
     * no fire time to another node.
     *
     * @param leaving whether the node is leaving
     */
    public void leaving(boolean leaving) {
        this.leaving = leaving;
    }

    /** What this node publishes: nothing before a declaration, before its first read of the fleet, and when leaving. */
    String publication() {
        Catalog c = catalog;
        SpreadView v = view;
        if (c.jobs().isEmpty() || v == null || leaving) {
            return "";
        }
        long covered = Long.MAX_VALUE;
        for (Map.Entry<String, JobOptions> job : c.jobs().entrySet()) {
            if (nodeId.equals(v.assignment().get(job.getKey()))) {
                covered = Math.min(covered, coverage.coveredThrough(job.getKey(), job.getValue().recovery().schedule(),
                        c.from()));
            }
        }
        return new MemberPublication(c.digest(), v.digest(), c.from(), covered).text();
    }

    /**
     * One read of the fleet: the nodes that declared this node's jobs, and each job's node among them. Reads come from
     * the store's timer and from firings that publish a grown lead; one that ends after a newer one is not taken.
     */
    void viewed(FleetMembers read) {
        synchronized (viewLock) {
            Catalog c = catalog;
            SpreadView before = view;
            if (c.jobs().isEmpty() || (before != null && read.readAt() < before.readAt())) {
                return;
            }
            view = view(c, read, before);
        }
    }

    private SpreadView view(Catalog c, FleetMembers read, SpreadView before) {
        Map<String, MemberPublication> members = new HashMap<>();
        read.publications().forEach((node, publication) -> {
            MemberPublication m = MemberPublication.parse(publication);
            if (m != null && m.jobs().equals(c.digest())) {
                members.put(node, m);
            }
        });
        members.putIfAbsent(nodeId, new MemberPublication(c.digest(), "", c.from(), Long.MIN_VALUE));
        String digest = Assignment.digest(members.keySet());
        Map<String, String> assignment = before != null && before.digest().equals(digest)
                && before.assignment().size() == c.jobs().size()
                ? before.assignment() : Map.copyOf(Assignment.of(c.jobs().keySet(), members.keySet()));
        return new SpreadView(digest, Map.copyOf(members), assignment, read.lateness(), read.readAt(), System.nanoTime());
    }

    /**
     * The earliest fire time of the job some node may still take over, so that a regular firing finding it unhandled
     * runs it as due rather than reporting it missed: the earliest this node left and has not seen decided, and any
     * fire time after the last this node saw decided that is younger than the fleet's largest lateness plus the grace
     * and a read, by Redis' clock (the assigned node stalled: the others take those over). A fire time this node saw
     * decided (run, or refused {@code BUSY} by a held lease) is not due: it was handled as its answer says.
     *
     * @param job the job name
     * @return the fire time, or null when the job is not spread
     */
    public Instant dueFrom(String job) {
        SpreadView v = view;
        TakeOvers t = takeOvers;
        if (!catalog.jobs().containsKey(job) || t == null) {
            return null;
        }
        Long earliestLeft = t.earliest(job);
        long due = earliestLeft == null ? Long.MAX_VALUE : earliestLeft;
        if (v != null) {
            long horizon = v.storeNow() - Math.max(0, v.largestLateness()) - GRACE_MILLIS - TAKE_OVER_SLACK_MILLIS;
            long decided = coverage.lastDecided(job);
            due = Math.min(due, decided == Long.MIN_VALUE ? horizon : Math.max(horizon, decided + 1));
        }
        return due == Long.MAX_VALUE ? null : Instant.ofEpochMilli(due);
    }

    /** Stops checking; fire times still left to other nodes stay theirs. */
    @Override
    public synchronized void close() {
        closed = true;
        if (takeOvers != null) {
            takeOvers.close();
        }
    }
}
