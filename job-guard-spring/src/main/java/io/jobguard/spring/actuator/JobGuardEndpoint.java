package io.jobguard.spring.actuator;

import io.jobguard.spring.GuardedJobsContributor;
import io.jobguard.JobGuard;
import io.jobguard.batch.BatchLocks;
import io.jobguard.spring.firing.GuardedJobRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.security.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The {@code jobguard} actuator endpoint. Reading shows this node (id, namespace, clock skew
 * against Redis), the jobs it guards (name, type, lease, schedule, next nominal fire time, last
 * outcome here, the node that asks Redis for its fire times when the fleet spread assigns it) and, cluster-wide, the live run lease of each job (holder node, fire time,
 * acquired-at, expires-in, fencing token); {@code /{job}} adds the job's recent fire times with the
 * node, outcome, duration and fencing token of each (missed, abandoned and paused ones included).
 * Jobs guarded outside {@code @Scheduled} (Quartz) appear through {@link GuardedJobsContributor} beans, with their
 * run leases and recent fires like the others. The report also lists the nodes seen in those records and what the
 * caller may write (the dashboard page, {@code JobGuardDashboard}, shows exactly this data).
 * Instants are ISO-8601, durations ISO-8601 ({@code PT5M}). Read-only by
 * default: the delete operation, which force-releases a job's run lease whoever holds it, also
 * needs {@code jobguard.actuator.force-release-enabled=true}; every attempt is logged at WARN.
 */
@Endpoint(id = "jobguard", defaultAccess = Access.READ_ONLY)
public class JobGuardEndpoint {

    /** The endpoint's id. */
    static final EndpointId ID = EndpointId.of("jobguard");

    private static final Logger log = LoggerFactory.getLogger(JobGuardEndpoint.class);

    private final JobGuard guard;
    private final JobSummaries jobs;
    private final boolean forceReleaseEnabled;
    private final BatchLeaseView batchLeases;
    private final JobHistoryView view;
    private final JobHistoryQueries histories;
    private volatile HeldLocksSource heldLocks = List::of;
    private volatile Supplier<? extends Collection<String>> declaredNamespaces = List::of;
    private volatile JobControl control;
    private volatile boolean writable;

    /**
     * Creates the endpoint.
     *
     * @param guard               the engine
     * @param registry            the guarded methods of this context
     * @param forceReleaseEnabled whether the delete operation may release leases
     */
    JobGuardEndpoint(JobGuard guard, GuardedJobRegistry registry, boolean forceReleaseEnabled) {
        this(guard, registry, forceReleaseEnabled, null, List.of());
    }

    /**
     * Creates the endpoint, also listing live batch leases.
     *
     * @param guard               the engine
     * @param registry            the guarded methods of this context
     * @param forceReleaseEnabled whether the delete operation may release leases
     * @param batchLocks          the batch locks, or null
     * @param batchNamespaces     batch namespaces to list from the start (more are added as used)
     */
    JobGuardEndpoint(JobGuard guard, GuardedJobRegistry registry, boolean forceReleaseEnabled,
                     BatchLocks batchLocks, Collection<String> batchNamespaces) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.jobs = new JobSummaries(registry, guard);
        this.forceReleaseEnabled = forceReleaseEnabled;
        this.batchLeases = batchLocks == null ? null : new BatchLeaseView(batchLocks, batchNamespaces);
        this.view = new JobHistoryView(guard);
        this.histories = new JobHistoryQueries(guard);
    }

    /**
     * Also lists the locks held through job-guard's ShedLock provider.
     *
     * @param source the held locks
     */
    public void heldLocksSource(HeldLocksSource source) {
        this.heldLocks = Objects.requireNonNull(source, "source");
    }

    /**
     * Also lists the live leases of these batch namespaces (those of {@code @BatchLocked} methods),
     * asked on every read.
     *
     * @param namespaces the namespaces
     */
    public void batchNamespaces(Supplier<? extends Collection<String>> namespaces) {
        this.declaredNamespaces = Objects.requireNonNull(namespaces, "namespaces");
    }

    /**
     * Also lists the jobs guarded outside {@code @Scheduled} (Quartz), asked on every read.
     *
     * @param source the contributors
     */
    public void contributors(Supplier<List<GuardedJobsContributor>> source) {
        jobs.contributors(source);
    }

    /** Enables the write operations (pause, resume, run-now, retry), with the role they need if any. */
    void control(JobControl control) {
        this.control = control;
    }

    /** Whether Boot maps the write operations at all (endpoint access unrestricted). */
    void writable(boolean writable) {
        this.writable = writable;
    }

    /**
     * Pauses or resumes a job cluster-wide, runs it once now on this node, or runs once more its latest fire time that
     * failed for good: {@code POST /actuator/jobguard/{job}} with {@code {"action": "pause" | "resume" | "run-now"}} or
     * {@code {"action": "retry", "fireTime": "<ISO-8601 instant or epoch millis>"}}.
     * Refused with HTTP 403 and a message naming the property unless
     * {@code jobguard.actuator.write-enabled=true}, and when {@code jobguard.actuator.write-role} is set
     * and the caller lacks that role; every request is logged at WARN with the node and the principal.
     *
     * @param job      the job name
     * @param action   {@code pause}, {@code resume}, {@code run-now} or {@code retry}
     * @param fireTime {@code retry}: the fire time to run again; {@code ""} when the request has none
     *                 ({@code OptionalFireTime} supplies it)
     * @param security who asks (logged, role checked)
     * @return the result, with HTTP 200, 400, 403, 404 or 409 (a retry the store refused, naming why)
     */
    @WriteOperation
    public WebEndpointResponse<Control> control(@Selector String job, String action, String fireTime,
                                                SecurityContext security) {
        JobControl c = control;
        return c == null ? JobControl.disabled(job, action) : c.apply(job, action, fireTime, security);
    }

    /**
     * This node, its guarded jobs and their live leases, as an anonymous caller would see it.
     *
     * @return the report
     */
    public NodeReport report() {
        return report(null);
    }

    /**
     * This node, its guarded jobs, their live leases, the nodes seen in their recent fire times, and
     * whether this caller may write.
     *
     * @param security who asks (whether it may write depends on the write role)
     * @return the report
     */
    @ReadOperation
    public NodeReport report(SecurityContext security) {
        List<JobSummary> summaries = jobs.summaries();
        List<RunLease> leases = new ArrayList<>();
        Map<String, Paused> paused = new TreeMap<>();
        ClusterNodes nodes = new ClusterNodes(guard.config().nodeId(), guard.config().clock().instant());
        for (JobSummary job : summaries) {
            view.lease(job.name()).ifPresent(lease -> {
                leases.add(lease);
                nodes.lease(lease);
            });
            view.pausedInto(paused, job.name());
            nodes.fires(job.name(), view.fires(job.name()));
        }
        return new NodeReport(guard.config().nodeId(), guard.config().namespace(), StoreReadings.skew(guard),
                guard.config().skewTolerance().toString(), summaries, leases, batchLeases == null ? List.of()
                : batchLeases.leases(declaredNamespaces.get()), List.copyOf(heldLocks.heldLocks()), paused, nodes.nodes(),
                JobControl.writes(control, writable, forceReleaseEnabled, security), StoreReadings.dataLoss(guard));
    }

    /**
     * One job in detail.
     *
     * @param job the job name
     * @return the detail, or null (HTTP 404) when this node does not guard such a job
     */
    @ReadOperation
    public JobDetail job(@Selector String job) {
        return jobs.summary(job).map(summary -> new JobDetail(summary, view.lease(job).orElse(null), view.fires(job),
                view.pause(job))).orElse(null);
    }

    /**
     * A job's run history, cluster-wide, newest recorded first: {@code GET <base>/jobguard/{job}/history/json} answers
     * one page ({@code limit} entries, 50 by default, at most 1,000) with the cursor of the next ({@code next}, passed
     * back as {@code cursor}); {@code .../history/csv} and {@code .../history/ndjson} export every matching entry,
     * streamed from the store a page at a time. Filters: {@code from} and {@code to} (fire times, ISO-8601 instants or
     * dates in UTC; {@code to} exclusive), {@code outcome} (comma-separated) and {@code node}. A read like the others:
     * whatever protects the endpoint protects it. A bad filter or cursor is HTTP 400 with a message.
     *
     * @param job     the job name
     * @param history must be {@code history}
     * @param format  {@code json}, {@code csv} or {@code ndjson}
     * @param from    the earliest fire time, or null
     * @param to      the fire time the entries are before, or null
     * @param outcome the outcomes, comma-separated, or null for all
     * @param node    the node, or null for all
     * @param cursor  the previous page's {@code next}, or null (json only)
     * @param limit   the page's size (json only), or null for 50
     * @return the page (json) or the export, with HTTP 200, 400 or 404
     */
    @ReadOperation(produces = {"application/json", "text/csv", "application/x-ndjson"})
    public WebEndpointResponse<Object> history(@Selector String job, @Selector String history, @Selector String format,
                                               @Nullable String from, @Nullable String to, @Nullable String outcome,
                                               @Nullable String node, @Nullable String cursor,
                                               @Nullable Integer limit) {
        return histories.read(job, history, format, new JobHistoryQueries.Filters(from, to, outcome, node), cursor,
                limit);
    }

    /**
     * Force-releases a job's run lease whoever holds it: the operator's way out of a stuck lease
     * (the holder's run is not stopped and loses its exclusivity). Refused with HTTP 403 unless
     * {@code jobguard.actuator.force-release-enabled=true}.
     *
     * @param job      the job name
     * @param security who asks (logged)
     * @return the result, with HTTP 200, 403 or 404
     */
    @DeleteOperation
    public WebEndpointResponse<ForceRelease> forceRelease(@Selector String job, SecurityContext security) {
        Principal principal = security == null ? null : security.getPrincipal();
        String who = principal == null ? "anonymous" : principal.getName();
        if (!forceReleaseEnabled) {
            log.warn("job-guard: force-release of job '{}' requested by {} on node {} REFUSED "
                    + "(jobguard.actuator.force-release-enabled=false)", job, who, guard.config().nodeId());
            return new WebEndpointResponse<>(new ForceRelease(job, false,
                    "force-release is disabled; set jobguard.actuator.force-release-enabled=true"), 403);
        }
        JobControl c = control;
        WebEndpointResponse<ForceRelease> noRole = c == null ? null
                : c.lacksRole(security, new ForceRelease(job, false, "the caller lacks the role " + c.role()));
        if (noRole != null) {
            log.warn("job-guard: force-release of job '{}' requested by {} on node {} REFUSED (lacks role {})", job,
                    who, guard.config().nodeId(), c.role());
            return noRole;
        }
        if (jobs.summary(job).isEmpty()) {
            return new WebEndpointResponse<>(new ForceRelease(job, false, "no guarded job of that name on this node"),
                    WebEndpointResponse.STATUS_NOT_FOUND);
        }
        log.warn("job-guard: force-release of job '{}' requested by {} on node {}", job, who, guard.config().nodeId());
        boolean released;
        try {
            released = guard.forceRelease(job);
        } catch (UnsupportedOperationException e) {
            // the store cannot force-release (no OperatorControl capability): say so instead of pretending
            return new WebEndpointResponse<>(new ForceRelease(job, false, e.getMessage()), 501);
        }
        return new WebEndpointResponse<>(new ForceRelease(job, released, released ? "run lease deleted"
                : "no run lease was held"), WebEndpointResponse.STATUS_OK);
    }

    /**
     * What the endpoint shows by default.
     *
     * @param node          this node's id
     * @param namespace     the namespace
     * @param clockSkew     this node's clock minus Redis TIME (null when Redis cannot be reached)
     * @param skewTolerance the configured tolerance
     * @param jobs          the jobs this node guards ({@code @Scheduled} and contributed, e.g. Quartz)
     * @param runLeases     live run leases of those jobs, cluster-wide
     * @param batchLeases   live batch leases of the known batch namespaces, cluster-wide
     * @param shedLocks     locks this node holds through job-guard's ShedLock provider
     * @param paused        the jobs paused cluster-wide, by name, with their pause flags
     * @param nodes         the nodes seen in the jobs' recent fire times and live leases, this one first
     * @param writes        what this caller may do through the write operations
     * @param dataLoss      the recovery from a loss of Redis' data while it lasts, else null
     */
    public record NodeReport(String node, String namespace, String clockSkew, String skewTolerance,
                             List<JobSummary> jobs, List<RunLease> runLeases, List<BatchLeaseEntry> batchLeases,
                             List<?> shedLocks, Map<String, Paused> paused, List<ClusterNode> nodes, Writes writes,
                             DataLoss dataLoss) {
    }

    /**
     * After Redis lost its data, the jobs whose fire times this node still refuses, as the health indicator shows.
     *
     * @param recoveringUntil the latest end of a refusal ({@code HISTORY_LOST}), by Redis time
     * @param jobs            the first fire time no longer refused, by job name
     */
    public record DataLoss(Instant recoveringUntil, Map<String, Instant> jobs) {
    }

    /**
     * A node as the cluster-wide records show it (the recent fire times of this node's jobs and their
     * live run leases).
     *
     * @param node      the node id
     * @param self      whether it is the node answering
     * @param lastSeen  the latest Redis time at which it took or decided one of those fire times or took a
     *                  lease (this node: now, by its clock)
     * @param clockLead the largest (fire time minus the Redis time at which it took the fire time's lease)
     *                  over those runs: positive when its clock runs ahead of Redis, negative when it took
     *                  every lease after the fire time; null when it ran none
     * @param jobsRan   how many of those fire times it ran, by job
     */
    public record ClusterNode(String node, boolean self, Instant lastSeen, String clockLead, Map<String, Integer> jobsRan) {
    }

    /**
     * What the caller of a read may do through the write operations: the dashboard shows its buttons
     * only when allowed.
     *
     * @param control      pause, resume and run-now are allowed (access unrestricted,
     *                     {@code jobguard.actuator.write-enabled=true}, and the caller has the write role if one is set)
     * @param forceRelease force-release is allowed too ({@code jobguard.actuator.force-release-enabled=true})
     */
    public record Writes(boolean control, boolean forceRelease) {
    }

    /**
     * A live batch lease.
     *
     * @param namespace    the batch namespace
     * @param holder       the holding node (or the foreign value)
     * @param acquiredAt   when it was taken, by Redis time
     * @param expiresIn    time to live left
     * @param fencingToken its fencing token
     * @param foreign      whether job-guard did not write it
     */
    public record BatchLeaseEntry(String namespace, String holder, Instant acquiredAt, String expiresIn,
                                  long fencingToken, boolean foreign) {
    }

    /**
     * One guarded job as this node sees it.
     *
     * @param name                the job name
     * @param method              the guarded method
     * @param type                RETURN or WAIT
     * @param lease               the run lease
     * @param waitFor             the WAIT bound
     * @param busyGrace           how long a RETURN firing waits for another fire time's run before it skips
     * @param cooldown            the fixed-delay cool-down
     * @param schedule            the schedule
     * @param nextNominalFireTime the next fire time of the schedule's grid (null for fixed delay)
     * @param lastFireTime        the nominal fire time of the last firing decided on this node (named as in the
     *                            endpoint's JSON)
     * @param lastOutcome         its outcome ({@code ASSIGNED_ELSEWHERE} when this node left it to the job's
     *                            assigned node)
     * @param assignedNode        the node that asks Redis for the job's regular fire times in this node's current
     *                            view of the fleet ({@link JobGuard#assignedNode}); null when the job is not spread
     *                            (the spread is off, or a WAIT, fixed-delay or Quartz job) or this node's view of the
     *                            fleet is not fresh, and then this node asks for every fire time it fires
     */
    public record JobSummary(String name, String method, String type, String lease, String waitFor, String busyGrace,
                             String cooldown, String schedule, Instant nextNominalFireTime, Instant lastFireTime,
                             String lastOutcome, String assignedNode) {
    }

    /**
     * A live run lease.
     *
     * @param job             the job name
     * @param holder          the holding node (or the foreign value)
     * @param nominalFireTime the fire time it runs for
     * @param acquiredAt      when it was taken, by Redis time
     * @param expiresIn       time to live left
     * @param fencingToken    its fencing token
     * @param foreign         whether job-guard did not write it
     */
    public record RunLease(String job, String holder, Instant nominalFireTime, Instant acquiredAt, String expiresIn,
                           long fencingToken, boolean foreign) {
    }

    /**
     * One recent fire time, cluster-wide.
     *
     * @param nominalFireTime the fire time
     * @param node            the node that ran it (or decided it, when nothing ran)
     * @param outcome         {@code RAN}, {@code FAILED}, {@code CAUGHT_UP}, {@code RETRIED} for a run;
     *                        {@code MISSED}, {@code ABANDONED}, {@code PAUSED}, {@code HISTORY_LOST} for a
     *                        fire time decided without a run ({@code RETRY_BY_HAND}: an operator asked for one more
     *                        attempt); {@code STARTED} while the run holds its lease
     *                        (or when its node died before releasing it); null when the store keeps no outcomes
     * @param duration        how long the run took (ISO-8601), null when nothing ran or it has not ended
     * @param at              when it was taken (a run) or decided (no run), by Redis time
     * @param fencingToken    the run's fencing token, -1 when nothing ran
     * @param attempt         the fire time's attempt the entry records, from 1 (1 when nothing ran); a failed run's
     *                        retries, and an operator's retry by hand, run later attempts
     */
    public record Fire(Instant nominalFireTime, String node, String outcome, String duration, Instant at,
                       long fencingToken, int attempt) {

        /**
         * An entry of a first attempt, or of a fire time decided without a run.
         *
         * @param nominalFireTime the fire time
         * @param node            the node that ran or decided it
         * @param outcome         how it ended
         * @param duration        how long the run took (ISO-8601), or null
         * @param at              when it was taken or decided, by Redis time
         * @param fencingToken    the run's fencing token, -1 when nothing ran
         */
        public Fire(Instant nominalFireTime, String node, String outcome, String duration, Instant at,
                    long fencingToken) {
            this(nominalFireTime, node, outcome, duration, at, fencingToken, 1);
        }
    }

    /**
     * One entry of a job's run history.
     *
     * @param fireTime       the fire time
     * @param outcome        how it ended (the outcomes of {@link Fire}, {@code RETRY_PENDING}, {@code RETRIES_EXHAUSTED},
     *                       {@code RETRY_SUPERSEDED} ...)
     * @param attempt        the fire time's attempt, from 1
     * @param node           the node that ran or decided it
     * @param start          when the run took its lease, by Redis time; null when nothing ran
     * @param end            start plus duration; null when nothing ran or the run has not ended
     * @param durationMs     how long the run took, in milliseconds; null when nothing ran or it has not ended
     * @param fencingToken   the run's fencing token; null when nothing ran
     * @param failureClass   for a run that threw, the exception's class; otherwise null
     * @param failureMessage for a run that threw, the first line of its message (at most 200 characters)
     */
    public record HistoryEntry(Instant fireTime, String outcome, int attempt, String node, Instant start, Instant end,
                               Long durationMs, Long fencingToken, String failureClass, String failureMessage) {
    }

    /**
     * One page of a job's run history.
     *
     * @param job     the job
     * @param entries the entries, newest recorded first
     * @param next    the cursor of the next page, null on the last
     */
    public record HistoryPage(String job, List<HistoryEntry> entries, String next) {
    }

    /**
     * One job in detail.
     *
     * @param job         the summary
     * @param runLease    the live run lease, or null
     * @param recentFires recent fire times, newest first
     * @param paused      the cluster-wide pause flag, or null when the job is not paused
     */
    public record JobDetail(JobSummary job, RunLease runLease, List<Fire> recentFires, Paused paused) {
    }

    /**
     * A job's cluster-wide pause flag.
     *
     * @param pausedAt when it was set, by Redis time (null when the value is not job-guard's)
     * @param node     the node that set it
     * @param by       who asked
     */
    public record Paused(Instant pausedAt, String node, String by) {
    }

    /**
     * The result of a pause, resume, run-now or retry request.
     *
     * @param job      the job name
     * @param action   the action
     * @param changed  pause/resume: whether the flag changed; run-now: whether the body ran; retry: whether the store
     *                 left the attempt pending
     * @param fireTime run-now: the nominal fire time it ran under; retry: the fire time to run again (named as in the
     *                 endpoint's JSON)
     * @param outcome  run-now: the outcome; retry: the attempt's outcome when this node ran it, {@code SCHEDULED} when
     *                 it is left to the nodes' passes, or why the store refused ({@code NOT_FAILED}, {@code NOT_LATEST},
     *                 {@code PENDING}, {@code BUSY}, {@code PAUSED}, {@code UNKNOWN})
     * @param message  what happened
     */
    public record Control(String job, String action, boolean changed, Instant fireTime, String outcome,
                          String message) {
    }

    /**
     * The result of a force-release request.
     *
     * @param job      the job name
     * @param released whether a lease was deleted
     * @param message  what happened
     */
    public record ForceRelease(String job, boolean released, String message) {
    }
}
