package io.jobguard.internal.spread;

import io.jobguard.FireTimeSchedule;
import io.jobguard.GuardType;
import io.jobguard.JobOptions;
import io.jobguard.store.FleetMembers;
import io.jobguard.store.FleetView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One node's part in the fleet spread. Each node publishes, with its clock lead, the jobs it declared (a digest), the
 * live fleet it sees (a digest of the node ids that declared the same jobs) and its coverage ({@link Coverage}). All
 * nodes that see the same fleet assign each job to the same node ({@link Assignment}). A regular fire time of a job
 * assigned to another node is left to it ({@link #leaveToAssignedNode}): this node sends nothing for it, and drops it
 * once it reads that node's coverage, published under the same fleet, reaching the fire time. It takes the fire time
 * over (asks the store itself) as soon as that node is not live or this node became the assigned one, and at the
 * latest {@value #GRACE_MILLIS} ms after that node's own lateness past the fire time, by Redis' clock. A node that
 * has not read the fleet within {@value #FRESH_MILLIS} ms leaves nothing to others: it asks.
 */
public final class FleetSpread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FleetSpread.class);

    /** The format of a publication: {@code s1;<jobs digest>;<fleet digest>;<from>;<covered>}. */
    static final String FORMAT = "s1";
    /** A view of the fleet older than this leaves no fire time to another node. */
    static final long FRESH_MILLIS = 1_500;
    /**
     * How long past the assigned node's lateness a left fire time waits for its coverage: that node's next
     * publication (every 500 ms) and this node's next read (every 500 ms), with a second of slack for a loaded
     * machine. Past it, this node takes the fire time over.
     */
    public static final long GRACE_MILLIS = 2_000;
    /** How often left fire times are checked. */
    static final long CHECK_MILLIS = 100;

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

    /** What a node published: its jobs, the fleet it saw, and the fire times it covered then. */
    private record Member(String jobs, String fleet, long from, long covered) {

        static Member parse(String publication) {
            String[] f = publication.split(";", -1);
            if (f.length < 5 || !FORMAT.equals(f[0])) {
                return null;
            }
            try {
                return new Member(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        boolean covers(String fleetDigest, long fireTime) {
            return fleet.equals(fleetDigest) && from <= fireTime && fireTime <= covered;
        }
    }

    /** One read of the fleet as this node uses it: the nodes that declared its jobs, and each job's node. */
    private record View(String digest, Map<String, Member> members, Map<String, String> assignment,
                        Map<String, Long> lateness, long readAt, long readNanos) {

        long storeNow() {
            return readAt + (System.nanoTime() - readNanos) / 1_000_000L;
        }

        boolean fresh() {
            return System.nanoTime() - readNanos < FRESH_MILLIS * 1_000_000L;
        }
    }

    /** A fire time left to its assigned node. */
    private record Left(JobOptions job, long fireTime, Runnable body) {
    }

    private final String nodeId;
    private final FleetView fleet;
    private final Clock clock;
    private final TakeOver takeOver;
    private final Coverage coverage;
    /** Per job: its fire times left to other nodes, by fire time. */
    private final Map<String, ConcurrentSkipListMap<Long, Left>> left = new ConcurrentHashMap<>();
    private volatile Catalog catalog = Catalog.NONE;
    private volatile View view;
    private final Object viewLock = new Object();
    private volatile boolean joined;
    private volatile boolean closed;
    private volatile boolean leaving;
    private ScheduledExecutorService checker;
    private ExecutorService takeOvers;
    /** The jobs whose take-over task runs. */
    private final Set<String> takingOver = ConcurrentHashMap.newKeySet();

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
     * @param jobs the jobs
     * @return the names of the jobs spread, or none when the store carries no member publications
     */
    public synchronized Set<String> declare(Collection<JobOptions> jobs) {
        Map<String, JobOptions> spread = new LinkedHashMap<>();
        for (JobOptions job : jobs) {
            if (spreadable(job)) {
                spread.put(job.name(), job);
            }
        }
        catalog = spread.isEmpty() ? Catalog.NONE
                : new Catalog(Map.copyOf(spread), Assignment.digest(spread.keySet()), clock.millis());
        if (!joined && !spread.isEmpty() && !closed) {
            if (!fleet.joinFleet(nodeId, this::publication, this::viewed)) {
                catalog = Catalog.NONE;
                return Set.of();
            }
            joined = true;
            checker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "job-guard-spread"));
            checker.scheduleWithFixedDelay(this::check, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
            takeOvers = Executors.newCachedThreadPool(r -> daemon(r, "job-guard-spread-take-over"));
        }
        return Set.copyOf(catalog.jobs().keySet());
    }

    private static Thread daemon(Runnable r, String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
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
        View v = view;
        if (closed || leaving || v == null || !v.fresh() || !catalog.jobs().containsKey(job.name())) {
            return false;
        }
        String assigned = v.assignment().get(job.name());
        if (assigned == null || assigned.equals(nodeId) || !v.members().containsKey(assigned)) {
            return false;
        }
        left.computeIfAbsent(job.name(), j -> new ConcurrentSkipListMap<>())
                .putIfAbsent(nominalFireTime.toEpochMilli(), new Left(job, nominalFireTime.toEpochMilli(), body));
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
        ConcurrentSkipListMap<Long, Left> times = left.get(job);
        if (times != null) {
            times.remove(nominalFireTime.toEpochMilli());
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
        View v = view;
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
        View v = view;
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
        return FORMAT + ";" + c.digest() + ";" + v.digest() + ";" + c.from() + ";" + covered;
    }

    /**
     * One read of the fleet: the nodes that declared this node's jobs, and each job's node among them. Reads come from
     * the store's timer and from firings that publish a grown lead; one that ends after a newer one is not taken.
     */
    void viewed(FleetMembers read) {
        synchronized (viewLock) {
            Catalog c = catalog;
            View before = view;
            if (c.jobs().isEmpty() || (before != null && read.readAt() < before.readAt())) {
                return;
            }
            view = view(c, read, before);
        }
    }

    private View view(Catalog c, FleetMembers read, View before) {
        Map<String, Member> members = new HashMap<>();
        read.publications().forEach((node, publication) -> {
            Member m = Member.parse(publication);
            if (m != null && m.jobs().equals(c.digest())) {
                members.put(node, m);
            }
        });
        members.putIfAbsent(nodeId, new Member(c.digest(), "", c.from(), Long.MIN_VALUE));
        String digest = Assignment.digest(members.keySet());
        Map<String, String> assignment = before != null && before.digest().equals(digest)
                && before.assignment().size() == c.jobs().size()
                ? before.assignment() : Map.copyOf(Assignment.of(c.jobs().keySet(), members.keySet()));
        return new View(digest, Map.copyOf(members), assignment, read.lateness(), read.readAt(), System.nanoTime());
    }

    /**
     * Drops the left fire times their nodes covered; hands those they did not cover in time to the job's take-over
     * task. Per job, the fire times are taken in order, so a check costs a lookup per job plus one per fire time
     * dropped.
     */
    private void check() {
        try {
            View v = view;
            left.forEach((job, times) -> {
                for (Map.Entry<Long, Left> e = times.firstEntry(); e != null; e = times.higherEntry(e.getKey())) {
                    String why = takeOverReason(v, job, e.getKey());
                    if (why == null) {
                        if (times.remove(e.getKey(), e.getValue())) {
                            coverage.decided(job, e.getKey(), false);
                        }
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

    /**
     * Why this node takes a left fire time over now: {@code null} when its assigned node covered it, {@code ""} when it
     * waits on, else the reason (the assigned node is not live, is this node, or did not cover it in time).
     */
    private String takeOverReason(View v, String job, long t) {
        String assigned = v == null ? null : v.assignment().get(job);
        Member m = assigned == null ? null : v.members().get(assigned);
        if (m == null) {
            return "its assigned node " + (assigned == null ? "(none)" : assigned) + " is not live";
        }
        if (assigned.equals(nodeId)) {
            return "its assigned node is now this node";
        }
        if (m.covers(v.digest(), t)) {
            return null;
        }
        long deadline = v.storeNow() - Math.max(0, v.lateness().getOrDefault(assigned, 0L)) - GRACE_MILLIS;
        return t >= deadline ? "" : "its assigned node " + assigned + " did not cover it in time (its coverage reaches "
                + Instant.ofEpochMilli(m.covered())
                + (m.fleet().equals(v.digest()) ? "" : ", in a view of the fleet this node does not share") + ")";
    }

    /**
     * Starts the job's take-over task unless it runs: one task per job takes its due fire times over one after the
     * other, in order, each a firing that asks the store, so that a fire time's take-over never finds an earlier one
     * unhandled and reports it missed. A fire time stays left until its take-over was asked ({@link #earliestLeft}).
     */
    private void startTakingOver(String job, ConcurrentSkipListMap<Long, Left> times) {
        if (closed || !takingOver.add(job)) {
            return;
        }
        try {
            takeOvers.execute(() -> {
                try {
                    for (Map.Entry<Long, Left> e = times.firstEntry(); e != null && !closed; e = times.firstEntry()) {
                        String why = takeOverReason(view, job, e.getKey());
                        if (why == null) {
                            if (times.remove(e.getKey(), e.getValue())) {
                                coverage.decided(job, e.getKey(), false);
                            }
                            continue;
                        }
                        if (why.isEmpty()) {
                            return;
                        }
                        Left l = e.getValue();
                        log.info("job-guard: job '{}' T={} node={} takes the fire time over: {}", job,
                                Instant.ofEpochMilli(l.fireTime()), nodeId, why);
                        try {
                            takeOver.fire(l.job(), Instant.ofEpochMilli(l.fireTime()), l.body());
                        } finally {
                            times.remove(e.getKey(), l); // one ask per take-over, answered or not
                        }
                    }
                } finally {
                    takingOver.remove(job);
                }
            });
        } catch (RuntimeException e) {
            takingOver.remove(job); // the executor is shut down: the node is closing
        }
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
        View v = view;
        if (!catalog.jobs().containsKey(job)) {
            return null;
        }
        long due = Long.MAX_VALUE;
        ConcurrentSkipListMap<Long, Left> times = left.get(job);
        Map.Entry<Long, Left> first = times == null ? null : times.firstEntry();
        if (first != null) {
            due = first.getKey();
        }
        if (v != null) {
            long lateness = v.lateness().values().stream().mapToLong(Long::longValue).max().orElse(0);
            long horizon = v.storeNow() - Math.max(0, lateness) - GRACE_MILLIS - TAKE_OVER_SLACK_MILLIS;
            long decided = coverage.lastDecided(job);
            due = Math.min(due, decided == Long.MIN_VALUE ? horizon : Math.max(horizon, decided + 1));
        }
        return due == Long.MAX_VALUE ? null : Instant.ofEpochMilli(due);
    }

    /** A read of the fleet and a check, past the grace: how long after its deadline a take-over may start. */
    static final long TAKE_OVER_SLACK_MILLIS = 1_000;

    /** Stops checking; fire times still left to other nodes stay theirs. */
    @Override
    public synchronized void close() {
        closed = true;
        if (checker != null) {
            checker.shutdownNow();
            takeOvers.shutdown();
        }
    }
}
