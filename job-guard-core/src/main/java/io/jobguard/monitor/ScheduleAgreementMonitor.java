package io.jobguard.monitor;

import io.jobguard.JobGuard;
import io.jobguard.internal.DaemonThreads;
import io.jobguard.store.FleetView;
import io.jobguard.store.JobId;
import io.jobguard.store.ScheduleClaim;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Warns when the nodes of one namespace fire a guarded job on different schedules.
 *
 * <p>job-guard runs each nominal fire time of a job once. Nodes that disagree on the schedule (a cron
 * evaluated in another zone, an expression changed by a rolling deploy, a different fixed rate) produce
 * different fire times, and each of those runs once, so the job runs more often than any one schedule
 * says. This monitor makes that visible: every {@code interval} it publishes this node's schedule of
 * each job to the store and compares it with what the other live nodes published; when a job's set of
 * disagreeing nodes changes it logs one WARN naming both schedules and nodes, and one INFO when the
 * nodes agree again. A node counts as live for three intervals after it last published.
 *
 * <p>It never changes what runs. A store that cannot share schedules (the in-memory and ShedLock
 * stores) makes it silent; a store error is logged and retried at the next interval, and never ends
 * the monitor's thread.
 */
public final class ScheduleAgreementMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ScheduleAgreementMonitor.class);

    private final JobGuard guard;
    private final Supplier<Map<String, String>> schedules;
    private final Duration interval;
    private final Duration claimTtl;
    private final Map<String, Map<String, String>> reported = new HashMap<>();
    private ScheduledExecutorService executor;
    private boolean failing;

    /**
     * Creates a monitor; nothing is published before {@link #start()} or {@link #checkNow()}.
     *
     * @param guard     the engine whose store, namespace and node id are used
     * @param schedules this node's schedule description of each guarded job, by job name; asked at
     *                  every check, so jobs registered later are included
     * @param interval  time between two checks
     * @throws IllegalArgumentException if the interval is not positive
     * @throws NullPointerException     if an argument is null
     */
    public ScheduleAgreementMonitor(JobGuard guard, Supplier<Map<String, String>> schedules, Duration interval) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.schedules = Objects.requireNonNull(schedules, "schedules");
        Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("schedule check interval must be positive, got " + interval);
        }
        this.interval = interval;
        this.claimTtl = interval.multipliedBy(3);
    }

    /**
     * Checks once at once, then every interval (at a fixed rate, so that a long check does not stretch the
     * time between two publications, which the history-loss window relies on), on a daemon thread of its
     * own; a second call does nothing.
     */
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        executor = DaemonThreads.scheduler("jobguard-schedule-check");
        executor.scheduleAtFixedRate(this::checkNow, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Publishes this node's schedules and compares them with the other live nodes' now.
     *
     * @return for each job on which some live node disagrees with this one: the other schedules, each
     *         with the nodes that fire the job on it; empty when all agree or the store could not be asked
     */
    public synchronized Map<String, Map<String, List<String>>> checkNow() {
        Map<String, Map<String, List<String>>> disagreements = new TreeMap<>();
        try {
            for (Map.Entry<String, String> job : new TreeMap<>(schedules.get()).entrySet()) {
                Map<String, List<String>> others = othersOf(job.getKey(), job.getValue());
                if (!others.isEmpty()) {
                    disagreements.put(job.getKey(), others);
                }
            }
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("job-guard: node {} could not compare job schedules with other nodes (retried every {}): {}",
                        guard.config().nodeId(), interval, e.toString());
            }
            failing = true;
        }
        return disagreements;
    }

    private Map<String, List<String>> othersOf(String job, String mine) {
        String node = guard.config().nodeId();
        // a store that cannot share schedules between nodes has no peers to compare with: the check stays silent
        List<ScheduleClaim> claims = guard.store().capability(FleetView.class)
                .map(fleet -> fleet.publishSchedule(new JobId(guard.config().namespace(), job), node, mine, claimTtl))
                .orElse(List.of());
        Map<String, List<String>> others = claims.stream()
                .filter(c -> !c.nodeId().equals(node) && !c.schedule().equals(mine))
                .collect(Collectors.groupingBy(ScheduleClaim::schedule, TreeMap::new,
                        Collectors.mapping(ScheduleClaim::nodeId, Collectors.collectingAndThen(Collectors.toList(),
                                nodes -> nodes.stream().sorted().toList()))));
        Map<String, String> nodeToSchedule = new TreeMap<>();
        others.forEach((schedule, nodes) -> nodes.forEach(n -> nodeToSchedule.put(n, schedule)));
        Map<String, String> before = reported.getOrDefault(job, Map.of());
        if (!nodeToSchedule.equals(before)) {
            if (nodeToSchedule.isEmpty()) {
                log.info("job-guard: job '{}': every live node now fires it on {}", job, mine);
            } else {
                log.warn("job-guard: job '{}' is scheduled differently across nodes: node {} fires it on {}, {}. "
                                + "Each schedule has its own fire times and each of those runs once, so the job runs "
                                + "more often than either schedule says. Give every node the same schedule and zone "
                                + "(expected for a while during a rolling deploy that changes it).", job, node, mine,
                        others.entrySet().stream()
                                .map(e -> (e.getValue().size() == 1 ? "node " : "nodes ")
                                        + String.join(", ", e.getValue()) + " on " + e.getKey())
                                .collect(Collectors.joining("; ")));
            }
            reported.put(job, nodeToSchedule);
        }
        return others;
    }

    /** Stops the checks; the store stays open. */
    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    /**
     * Whether {@link #start()} was called and {@link #close()} was not.
     *
     * @return {@code true} while checks are scheduled
     */
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
