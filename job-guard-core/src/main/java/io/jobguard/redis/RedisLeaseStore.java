package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.RedisEndpoints;
import io.jobguard.internal.redis.ReleaseNotifications;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.internal.redis.StoreCalls;
import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.internal.redis.fleet.LeadShards;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.internal.redis.run.Layout1Migration;
import io.jobguard.internal.redis.run.RedisFireHistory;
import io.jobguard.internal.redis.run.RedisPauseFlags;
import io.jobguard.internal.redis.run.RedisRetryByHand;
import io.jobguard.internal.redis.run.RedisRunAcquires;
import io.jobguard.internal.redis.run.RedisRunReads;
import io.jobguard.internal.redis.run.RedisRunReleases;
import io.jobguard.internal.redis.run.ReleaseWaiters;
import io.jobguard.internal.redis.run.ReplicaAcknowledgement;
import io.jobguard.internal.redis.run.RunAcquireArguments;
import io.jobguard.internal.redis.run.SchedulePublications;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.FleetMembers;
import io.jobguard.store.FleetView;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.OperatorControl;
import io.jobguard.store.OutcomeRecording;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RetryByHand;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.store.RunRecord;
import io.jobguard.store.RunRecovery;
import io.jobguard.store.ScheduleClaim;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The reference {@link LeaseStore}: run leases in Redis (standalone, Sentinel or Cluster, through
 * any spring-data-redis {@link RedisConnectionFactory}). Each operation is one round trip: one
 * Lua script checks the fire-time marker, the run lease and the cool-down and writes lease and
 * marker atomically; release and renew are owner-checked scripts. Leases expire by Redis TTL,
 * acquisition times come from Redis {@code TIME}, fencing tokens from a per-job counter that only
 * grows: each token is at least Redis {@code TIME} in microseconds, so tokens keep growing even
 * after Redis lost the counter (assuming the Redis servers' clocks are roughly right). A per-job
 * epoch key tells a store that lost the job's history (restart without persistence, flush,
 * failover to a replica that missed writes, eviction) and fire times that may have run before the
 * loss are refused as {@link AcquireResult.Status#HISTORY_LOST}.
 *
 * <p>It has every optional capability ({@link RunRecovery}, {@link OutcomeRecording}, {@link FleetView},
 * {@link RunHistory}, {@link OperatorControl}). The connection factory is not closed by this store; {@link #close()}
 * only ends the release subscription.
 */
public final class RedisLeaseStore implements LeaseStore, RunRecovery, OutcomeRecording, FleetView, RunHistory,
        OperatorControl {

    private static final LuaScript RENEW = LuaScript.load("run-renew");
    private static final LuaScript FORCE_RELEASE = LuaScript.load("run-force-release");

    private final KeySchema keys;
    private final ScriptRunner scripts;
    private final ReleaseNotifications notifications;
    private final LossWindows lossWindows;
    private final FleetLeads fleetLeads;
    private final String endpoint;
    private final RedisPauseFlags pauseFlags;
    private final RedisRetryByHand retriesByHand;
    private final RedisRunReads reads;
    private final RedisRunReleases releases;
    private final RedisFireHistory fireHistory;
    private final SchedulePublications publications;
    private final ReleaseWaiters waiters = new ReleaseWaiters();
    private final RedisRunAcquires acquires;

    private RedisLeaseStore(RedisConnectionFactory connectionFactory, String keyPrefix, DurableAcquire durable) {
        this.keys = new KeySchema(keyPrefix);
        this.endpoint = RedisEndpoints.describe(connectionFactory);
        this.scripts = new ScriptRunner(connectionFactory);
        this.pauseFlags = new RedisPauseFlags(scripts, keys);
        this.retriesByHand = new RedisRetryByHand(scripts, keys);
        this.reads = new RedisRunReads(scripts, keys);
        this.fireHistory = new RedisFireHistory(scripts, keys);
        this.notifications = new ReleaseNotifications(connectionFactory, keys.releaseChannel());
        this.releases = new RedisRunReleases(scripts, keys, notifications);
        LeadShards leadShards = new LeadShards(connectionFactory, keys);
        this.lossWindows = new LossWindows(leadShards::shardOf);
        this.fleetLeads = new FleetLeads(scripts, leadShards, lossWindows);
        this.publications = new SchedulePublications(scripts, keys, lossWindows);
        this.acquires = new RedisRunAcquires(scripts, keys,
                new ReplicaAcknowledgement(durable.replicas(), durable.timeout()), lossWindows, fleetLeads, releases, waiters);
    }

    /**
     * Creates a store with the default key prefix {@code jobguard}.
     *
     * @param connectionFactory the Redis connections to use
     * @return the store
     */
    public static RedisLeaseStore create(RedisConnectionFactory connectionFactory) {
        return create(connectionFactory, "jobguard");
    }

    /**
     * Creates a store.
     *
     * @param connectionFactory the Redis connections to use
     * @param keyPrefix         first segment of every key
     * @return the store
     * @throws IllegalArgumentException if the prefix is blank, contains whitespace, control characters or
     *                                  braces, or is longer than 200 characters
     */
    public static RedisLeaseStore create(RedisConnectionFactory connectionFactory, String keyPrefix) {
        return create(connectionFactory, keyPrefix, DurableAcquire.defaults());
    }

    /**
     * Creates a store that waits for replicas to acknowledge each granted run lease before the run
     * starts ({@link DurableAcquire}).
     *
     * @param connectionFactory the Redis connections to use
     * @param keyPrefix         first segment of every key
     * @param durable           how many replicas must acknowledge an acquire, and how long to wait
     * @return the store
     * @throws IllegalArgumentException if the prefix is blank, contains whitespace, control characters or
     *                                  braces, or is longer than 200 characters
     */
    public static RedisLeaseStore create(RedisConnectionFactory connectionFactory, String keyPrefix,
                                         DurableAcquire durable) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        Objects.requireNonNull(durable, "durable");
        return new RedisLeaseStore(connectionFactory, keyPrefix, durable);
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest r) {
        return acquireRun(r, AcquireMode.REGULAR);
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest r, AcquireMode mode) {
        return acquires.acquire(r, mode);
    }

    /**
     * The jobs this node was refused after Redis lost their history ({@code HISTORY_LOST}) whose refusal still lasts,
     * each with the fire time from which it runs again (Redis time); empty when none. For health checks.
     *
     * @return job to the first fire time no longer refused
     */
    public Map<JobId, Instant> recoveringFromDataLoss() {
        return lossWindows.recovering();
    }

    /**
     * Moves every job under this store's key prefix from key layout 1 (job-guard 0.x: epoch, fencing counter, run
     * record and pause flag in keys of their own) into layout 2 (one state hash per job). Until a job is moved, every
     * firing of it on a node of this version fails with an error naming its layout-1 keys and this method, and runs
     * nothing. Call it once no node of the old version runs; it is safe to call again and beside nodes of this version.
     * A fire time the old layout ran stays refused: lease, markers, cool-down and history keep their keys.
     *
     * @return how many jobs had layout-1 keys (0 when there was nothing to move)
     * @throws LeaseStoreException if Redis cannot be read or a layout-1 key holds another type (named)
     */
    public int migrateLayout1() {
        return StoreCalls.call(() -> new Layout1Migration(scripts, keys).migrateAll(), "migrate key layout 1 under " + keys.prefix());
    }

    FleetLeads fleetLeads() { // tests step its wall clock
        return fleetLeads;
    }

    @Override
    public boolean renewRun(RunLeaseRequest r) {
        Long renewed = StoreCalls.call(() -> scripts.run(RENEW, ReturnType.INTEGER,
                List.of(keys.of(r.job(), JobKey.RUN_LEASE), keys.fireMarker(r.job(), r.nominalFireTime())),
                // the lease and marker TTL in the acquire's milliseconds
                List.of(r.ownerToken(), Long.toString(RunAcquireArguments.millis(r.lease())),
                        Long.toString(RunAcquireArguments.millis(r.markerTtl())))),
                "renew run lease of " + r.job());
        return renewed != null && renewed == 1L;
    }

    @Override
    public boolean releaseRun(RunLeaseRequest r, Duration cooldown) {
        return releases.release(r, cooldown, RunEnd.of("", Duration.ZERO));
    }

    /** {@inheritDoc} Seen by this node's next acquire of the job ({@code RedisRunReleases#releaseAsync}). */
    @Override
    public CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest r, Duration cooldown, RunEnd end) {
        return releases.releaseAsync(r, cooldown, end);
    }

    @Override
    public ReleaseWatch watchRunReleases(JobId job) {
        return waiters.watch(job, notifications.watch(keys.runReleaseTopic(job)));
    }

    @Override
    public Optional<LeaseRecord> currentRunLease(JobId job) {
        releases.awaitBeforeRead(job);
        return StoreCalls.call(() -> reads.currentRunLease(job), "read run lease of " + job);
    }

    @Override
    public List<LeaseRecord> recentFires(JobId job, int max) {
        if (max <= 0) {
            return List.of();
        }
        releases.awaitBeforeRead(job);
        // entries carry an outcome once released ('o|...') and fire times decided without a run ('n|...'): runs only
        return StoreCalls.call(() -> fireHistory.entries(job, max).stream().map(RedisFireHistory::leaseOf)
                .filter(Objects::nonNull).toList(), "read recent fire times of " + job);
    }

    @Override
    public void recordOutcome(JobId job, Instant nominalFireTime, String nodeId, String outcome, int historySize) {
        releases.awaitBeforeRead(job);
        StoreCalls.call(() -> {
            fireHistory.record(job, nominalFireTime, nodeId, outcome, historySize);
            return null;
        }, "record outcome " + outcome + " of " + job);
    }

    /** {@inheritDoc} Reads the list in chunks; the cursor finds its entry again after entries recorded meanwhile. */
    @Override
    public RunHistory.Page historyPage(JobId job, RunHistory.Query query, String cursor, int pageSize) {
        RedisFireHistory.checkCursor(cursor);
        releases.awaitBeforeRead(job);
        return StoreCalls.call(() -> fireHistory.page(job, query, cursor, pageSize), "read the history of " + job);
    }

    /** {@inheritDoc} Reads the list in chunks of 500 entries, so memory does not grow with the history's length. */
    @Override
    public void exportHistory(JobId job, RunHistory.Query query, Predicate<FireEntry> sink) {
        releases.awaitBeforeRead(job);
        // the sink's own failure (a client that went away) is its own, not the store's
        RuntimeException[] fromSink = new RuntimeException[1];
        Predicate<FireEntry> guarded = entry -> {
            try {
                return sink.test(entry);
            } catch (RuntimeException e) {
                fromSink[0] = e;
                throw e;
            }
        };
        try {
            StoreCalls.call(() -> {
                fireHistory.export(job, query, guarded);
                return null;
            }, "export the history of " + job);
        } catch (RuntimeException e) {
            throw fromSink[0] != null ? fromSink[0] : e;
        }
    }

    @Override
    public List<FireEntry> fireHistory(JobId job, int max) {
        releases.awaitBeforeRead(job);
        return StoreCalls.call(() -> fireHistory.read(job, max), "read recent fire times of " + job);
    }

    /** {@inheritDoc} Judged from the fleet's published lateness ({@code jobguard:leads}), read every half second. */
    @Override
    public Optional<Instant> reachedByLaterNodes() {
        long reached = fleetLeads.reachedByLaterNodes();
        return reached == Long.MAX_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(reached));
    }

    /** {@inheritDoc} Carried in the node's entry of the leads hash ({@code fleet-leads.lua}), every half second. */
    @Override
    public boolean joinFleet(String nodeId, Supplier<String> publication, Consumer<FleetMembers> viewer) {
        fleetLeads.join(nodeId, publication, viewer);
        return true;
    }

    @Override
    public void firedWithoutAsking(Instant nominalFireTime) {
        fleetLeads.regularAsk(nominalFireTime.toEpochMilli());
    }

    @Override
    public Optional<RunRecord> runRecord(JobId job) {
        releases.awaitBeforeRead(job);
        return StoreCalls.call(() -> reads.runRecord(job), "read the run record of " + job);
    }

    @Override
    public boolean forceReleaseRun(JobId job) {
        Long deleted = StoreCalls.call(() -> scripts.run(FORCE_RELEASE, ReturnType.INTEGER,
                List.of(keys.of(job, JobKey.RUN_LEASE)), List.of(keys.releaseChannel(), keys.runReleaseTopic(job))),
                "force-release run lease of " + job);
        return deleted != null && deleted == 1L;
    }

    @Override
    public List<ScheduleClaim> publishSchedule(JobId job, String nodeId, String schedule, Duration ttl) {
        return StoreCalls.call(() -> publications.publish(job, nodeId, schedule, ttl), "publish the schedule of " + job);
    }

    @Override
    public Instant serverTime() {
        Long millis = StoreCalls.call(() -> {
            try (RedisConnection c = scripts.connectionFactory().getConnection()) {
                return c.serverCommands().time(TimeUnit.MILLISECONDS);
            }
        }, "read Redis TIME");
        if (millis == null) {
            throw new LeaseStoreException("Redis TIME returned nothing");
        }
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public boolean pause(JobId job, String nodeId, String by) {
        return StoreCalls.call(() -> pauseFlags.pause(job, nodeId, by), "pause " + job);
    }

    @Override
    public boolean resume(JobId job) {
        return StoreCalls.call(() -> pauseFlags.resume(job), "resume " + job);
    }

    @Override
    public Optional<Pause> paused(JobId job) {
        return StoreCalls.call(() -> pauseFlags.paused(job), "read the pause flag of " + job);
    }

    /** {@inheritDoc} One script call ({@code run-retry-by-hand.lua}), after this node's own releases of the job landed. */
    @Override
    public RetryByHand retryByHand(JobId job, Instant fireTime, String nodeId, int historySize) {
        Objects.requireNonNull(fireTime, "fireTime");
        Objects.requireNonNull(nodeId, "nodeId");
        releases.awaitBeforeRead(job);
        return StoreCalls.call(() -> retriesByHand.retry(job, fireTime, nodeId, historySize),
                "retry " + job + " at " + fireTime + " by hand");
    }

    @Override
    public boolean supportsFencing() {
        return true;
    }

    /**
     * Publishes this node's clock lead one last time: a loss of Redis' data this node lived through is then marked in
     * the re-created leads hash for the nodes that start after it (docs/reliability.md, "the double fault").
     */
    @Override
    public void admissionClosed() {
        fleetLeads.farewell();
    }

    @Override
    public void close() {
        fleetLeads.close();
        notifications.close();
    }

    @Override
    public String toString() {
        return "RedisLeaseStore[" + endpoint + ", prefix=" + keys.prefix() + "]";
    }

    @Override
    public String blockingKey(RunLeaseRequest r, AcquireResult.Status status) {
        return switch (status) {
            case ALREADY_RAN -> keys.fireMarker(r.job(), r.nominalFireTime());
            case COOLDOWN -> keys.of(r.job(), JobKey.COOLDOWN);
            default -> keys.of(r.job(), JobKey.RUN_LEASE);
        };
    }
}
