package io.jobguard;

import io.jobguard.internal.engine.HistoryExportStream;
import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.store.HistoryFormat;
import io.jobguard.store.OperatorControl;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.RunHistory;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.RetryByHand;

import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The engine that guards scheduled jobs across a cluster. For a job J and a nominal fire time T:
 * <ol>
 *   <li>at most one node in the cluster starts J's body for T, whatever the clock skew between
 *       nodes (below the configured skew tolerance);</li>
 *   <li>while a run of J holds the run lease, no other run of J starts on any node;</li>
 *   <li>a node that dies mid-run blocks J for at most the lease; T is not run again (unless the job's
 *       delivery is {@link Delivery#AT_LEAST_ONCE});</li>
 *   <li>a node only renews or releases leases it holds; a lost lease is reported, not deleted;</li>
 *   <li>a run longer than its lease keeps it renewed while the node lives, and is told when
 *       renewal fails ({@link RunContext#isLeaseLost()}, a WARN log, listeners);</li>
 *   <li>when the store cannot be reached the firing is skipped with {@link RunOutcome#STORE_ERROR}
 *       (unless {@link StoreFailurePolicy#RUN}); no exception reaches the caller of
 *       {@link #admit(JobOptions, Instant)}.</li>
 *   <li>when the store lost J's history (Redis restarted without persistence, was flushed, failed
 *       over to a replica that missed writes, evicted keys), a fire time that may have run before
 *       the loss is skipped with {@link RunOutcome#HISTORY_LOST}, never run (as far as the store
 *       can tell; see {@code RedisLeaseStore}).</li>
 * </ol>
 * One firing has one owner: {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)} admits its
 * fire time (plainly, or after recovering what the job's {@link JobOptions#recovery()} asks for), runs
 * the body, finishes the permit and records the outcome; the Spring advice, the Quartz listener and
 * {@link #run(JobOptions, Instant, Runnable)} all call it. {@link #admit(JobOptions, Instant)} is the
 * lower-level step for callers that finish the permit themselves. Thread-safe; one instance per node, made by {@link #create}.
 */
public interface JobGuard extends AutoCloseable {

    /**
     * Creates an engine.
     *
     * @param store  where leases live (for example {@code RedisLeaseStore.create(connectionFactory)})
     * @param config node-wide settings
     * @return the engine; close it on shutdown (the store is not closed with it)
     * @throws NullPointerException if an argument is null
     */
    static JobGuard create(LeaseStore store, JobGuardConfig config) {
        return new JobGuardEngine(store, config);
    }

    /**
     * Adds a listener for outcomes and lost leases.
     *
     * @param listener the listener
     * @return this engine
     */
    JobGuard addListener(JobGuardListener listener);

    /**
     * Returns the node-wide settings.
     *
     * @return the configuration
     */
    JobGuardConfig config();

    /**
     * Returns the lease store.
     *
     * @return the store
     */
    LeaseStore store();

    /**
     * Decides whether this node runs the firing of {@code job} for {@code nominalFireTime}. When
     * another run holds the run lease, RETURN waits up to {@link JobOptions#busyGrace()} for its
     * release and is skipped as {@link RunOutcome#BUSY} if the lease stays held; WAIT blocks up to
     * {@link JobOptions#waitFor()}. Both are woken by release notifications and re-check the fire
     * time (already taken: {@link RunOutcome#ALREADY_RAN}) before they run. A granted permit must
     * be finished (in a {@code finally}). The job's {@link JobOptions#recovery()} is not applied here:
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)} applies it.
     *
     * @param job             how the job is guarded
     * @param nominalFireTime the fire time the schedule designated (not the node's "now")
     * @return the permit, or why the firing is skipped; never throws for store failures
     * @throws IllegalArgumentException if {@code nominalFireTime} is null or outside 1970 to 9999
     * @throws NullPointerException     if {@code job} is null
     */
    Admission admit(JobOptions job, Instant nominalFireTime);

    /**
     * Runs one firing of {@code job} for {@code nominalFireTime}, whole: admits the fire time (after the
     * recovery runs the job's {@link JobOptions#recovery() misfire policy and delivery} ask for, each a run
     * of {@code body}'s recovery work, when the job has a recovery), starts {@code body} under the permit
     * if admitted, finishes the permit when the body ends (for a body that ends later, whenever it calls
     * its {@link FiringEnd}), and records the outcome once: the job's {@link #lastFiring(String) last
     * firing} and {@code observer}. Never throws for store failures (they are the refusal
     * {@link RunOutcome#STORE_ERROR}, or an unguarded run under {@link StoreFailurePolicy#RUN}); what the
     * body throws while it starts is rethrown after the firing ended with it.
     *
     * @param job             how the job is guarded, and how it recovers lost fire times
     * @param nominalFireTime the fire time the schedule designated (not the node's "now")
     * @param body            the job's work
     * @param observer        hears when the run starts and, once, how the firing ended
     * @param <R>             what the body returns
     * @return the body's value, or why the fire time was not run here
     * @throws IllegalArgumentException if {@code nominalFireTime} is null or outside 1970 to 9999
     * @throws NullPointerException     if an argument is null
     * @throws Throwable                what the body threw while it started
     */
    <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body, FiringObserver observer)
            throws Throwable;

    /**
     * Declares the jobs this node fires on a schedule (a later call replaces the declaration). With the fleet spread on
     * ({@link JobGuardConfig#spread()}) and a store that carries the fleet's publications, each declared RETURN job
     * with a grid of fire times ({@link RecoveryOptions#schedule()}) has its regular fire times asked for by one live
     * node among those that declared the same jobs; on the others {@link #fire} ends {@link RunOutcome#ASSIGNED_ELSEWHERE}
     * without a store call, and a node takes the fire time over (asks the store, which still decides) when the assigned
     * node did not cover it in time. docs/design.md, "Spread over the fleet", states the bounds.
     *
     * A fire time taken over runs on job-guard's own take-over thread; {@link #declareScheduledJobs(Collection,
     * TakeOverExecutor)} names where else.
     *
     * @param jobs the jobs this node fires on a schedule
     * @return the names of the jobs spread: none when the spread is off or the store cannot carry it
     */
    default Set<String> declareScheduledJobs(Collection<JobOptions> jobs) {
        return declareScheduledJobs(jobs, TakeOverExecutor.OWN_THREAD);
    }

    /**
     * Declares the jobs this node fires on a schedule, as {@link #declareScheduledJobs(Collection)} does, and where a
     * fire time this node takes over runs: on the scheduler that fires the job, for instance, so that its run sees
     * the same threads as a regular run.
     *
     * @param jobs      the jobs this node fires on a schedule
     * @param takeOvers runs the fire times this node takes over
     * @return the names of the jobs spread: none when the spread is off or the store cannot carry it
     */
    default Set<String> declareScheduledJobs(Collection<JobOptions> jobs, TakeOverExecutor takeOvers) {
        return Set.of();
    }

    /**
     * The node that asks for the job's regular fire times in this node's current view of the fleet.
     *
     * @param job the job name
     * @return the node id; empty when the job is not spread or this node's view of the fleet is not fresh
     */
    default Optional<String> assignedNode(String job) {
        return Optional.empty();
    }

    /**
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver)} with no observer.
     *
     * @param job             how the job is guarded, and how it recovers lost fire times
     * @param nominalFireTime the fire time the schedule designated
     * @param body            the job's work
     * @param <R>             what the body returns
     * @return the body's value, or why the fire time was not run here
     * @throws Throwable what the body threw while it started
     */
    <R> Fired<R> fire(JobOptions job, Instant nominalFireTime, FiringBody<R> body) throws Throwable;

    /**
     * Runs {@code body} if this node wins the firing (a synchronous
     * {@link #fire(JobOptions, Instant, FiringBody, FiringObserver) fire}); the lease is released when the body
     * ends. An exception thrown by the body is rethrown after the lease is released and
     * {@link RunOutcome#FAILED} is reported.
     *
     * @param job             how the job is guarded
     * @param nominalFireTime the fire time the schedule designated
     * @param body            the job's work
     * @return RAN, or why the body did not run
     * @throws IllegalArgumentException if {@code nominalFireTime} is null
     */
    RunOutcome run(JobOptions job, Instant nominalFireTime, Runnable body);

    /**
     * The last firing of a job that this engine decided through {@link #fire} or {@link #run}.
     *
     * @param job the job name
     * @return its fire time and outcome, or empty when none was decided on this node
     */
    Optional<LastFiring> lastFiring(String job);

    /**
     * Pauses a job cluster-wide: until {@link #resume}, every node's firing of it is skipped with
     * {@link RunOutcome#PAUSED} (the flag is read by the same store call that takes the lease). A
     * run in progress is not stopped.
     *
     * @param job the job name
     * @param by  who asked (recorded with the flag; null for unknown)
     * @return true if the job was running and is now paused, false if it was paused already
     * @throws UnsupportedOperationException naming the store when it cannot pause jobs
     */
    boolean pause(String job, String by);

    /**
     * Resumes a paused job cluster-wide: its next fire times run as usual.
     *
     * @param job the job name
     * @return true if the job was paused
     * @throws UnsupportedOperationException naming the store when it cannot pause jobs
     */
    boolean resume(String job);

    /**
     * The pause flag of a job, cluster-wide.
     *
     * @param job the job name
     * @return the flag, or empty when the job runs (always empty on a store that cannot pause jobs)
     */
    Optional<OperatorControl.Pause> paused(String job);

    /**
     * The number of run leases this node holds now.
     *
     * @return live permits on this node
     */
    int activeLeases();

    /**
     * This node's clock minus the store's clock, corrected by half the round trip.
     *
     * @return the skew (positive when this node is ahead)
     * @throws RuntimeException if the store cannot be reached
     */
    Duration measureClockSkew();

    /**
     * The live run lease of a job, cluster-wide.
     *
     * @param job the job name
     * @return the lease, or empty
     * @throws UnsupportedOperationException naming the store when it keeps no cluster-wide run history
     */
    Optional<LeaseRecord> currentLease(String job);

    /**
     * The job's most recent fire times and who took them, newest first.
     *
     * @param job the job name
     * @return up to {@link JobGuardConfig#historySize()} entries
     * @throws UnsupportedOperationException naming the store when it keeps no cluster-wide run history
     */
    List<LeaseRecord> recentFires(String job);

    /**
     * One page of a job's run history, newest recorded first: each entry has the fire time, node, outcome, attempt,
     * start, end, duration and fencing token, and a failure's class and message line (docs/operations.md, "Run
     * history"). Pass the page's {@link RunHistory.Page#next()} to read the next one; a walk never repeats an entry.
     *
     * @param job      the job name
     * @param query    which entries ({@link RunHistory.Query#ALL} for all)
     * @param cursor   the previous page's cursor, or null for the first page
     * @param pageSize at most this many entries, 1 to 1,000
     * @return the page
     * @throws IllegalArgumentException      if the page size is out of range or the cursor is not one of a page
     * @throws UnsupportedOperationException naming the store when it keeps no cluster-wide run history
     */
    RunHistory.Page history(String job, RunHistory.Query query, String cursor, int pageSize);

    /**
     * Hands each entry of a job's run history that matches the query to the sink, newest recorded first, until the
     * history ends or the sink answers {@code false}. The Redis store reads it in chunks of 500, so memory does not
     * grow with the history's length: the way to export it.
     *
     * @param job   the job name
     * @param query which entries
     * @param sink  takes each entry; {@code false} stops
     * @throws UnsupportedOperationException naming the store when it keeps no cluster-wide run history
     */
    void exportHistory(String job, RunHistory.Query query, Predicate<RunHistory.FireEntry> sink);

    /**
     * A job's run history as CSV or NDJSON ({@link HistoryFormat}), read from the store a page of 500 entries at a
     * time as the caller reads the stream: memory does not grow with the history's length, and an entry recorded
     * meanwhile never makes the export repeat or skip one. Nothing is read before the first byte; a store failure
     * while reading is an {@link java.io.IOException}.
     *
     * @param job    the job name
     * @param query  which entries
     * @param format the format
     * @return the stream, to be closed by the caller
     */
    default InputStream exportHistory(String job, RunHistory.Query query, HistoryFormat format) {
        return new HistoryExportStream(this, job, query, format);
    }

    /**
     * Deletes a job's run lease whoever holds it (operator action, logged at WARN).
     *
     * @param job the job name
     * @return {@code true} if a lease was deleted
     * @throws UnsupportedOperationException naming the store when it cannot release another node's lease
     */
    boolean forceRelease(String job);

    /**
     * Runs once more, by an operator's hand, a fire time of a job whose run failed for good ({@link RunOutcome#FAILED}
     * or {@link RunOutcome#RETRIES_EXHAUSTED}): leaves its next attempt pending cluster-wide, due at once, for
     * {@link #runDueRetry} on any node (this one included) to run once, under a lease with a higher fencing token. The
     * store accepts it atomically only while the fire time is the job's latest started one, its run completed and
     * failed, no attempt is pending, no run holds the lease and the job is not paused; else it answers why not and
     * writes nothing. The attempt then runs under the job's {@link JobOptions#retry() retry policy}: when it fails past
     * the policy's attempts it ends {@link RunOutcome#RETRIES_EXHAUSTED}. The history records {@code RETRY_BY_HAND} for
     * the fire time. Logged at WARN with the node and who asked.
     *
     * @param job      the job name
     * @param fireTime the fire time to run again
     * @param by       who asked (logged; null for unknown)
     * @return the attempt left pending ({@link RetryByHand.Status#SCHEDULED}), or why none was
     * @throws UnsupportedOperationException naming the store when it cannot retry by hand
     * @throws NullPointerException          if {@code fireTime} is null
     */
    RetryByHand retryByHand(String job, Instant fireTime, String by);

    /**
     * Graceful shutdown, before the store's connections close: waits up to {@code wait} for this node's running
     * guarded runs to finish (they release their leases as usual), then gives up the leases of the runs still
     * going. Each of those is told first (its {@link RunContext#isLeaseLost()} turns true, so
     * {@link RunContext#checkLease()} and lease-checked commits refuse; listeners hear of it; its thread is
     * interrupted when {@link JobGuardConfig#interruptOnLeaseLost()} is set), then its lease is released
     * (owner-checked), so another node can run the next fire time without waiting for the lease's TTL. The
     * fire-time markers stay: no fire time runs twice because of this. From the call on, the guard takes no new
     * lease until {@link #reopenAdmission()}: a firing that comes later is refused {@link RunOutcome#STORE_ERROR}
     * without asking the store (another node runs it), and the admissions already under way are waited for first (up to ten seconds, or
     * {@code wait} when longer), so no lease outlives the store's connections when they close next.
     *
     * @param wait how long to wait for running runs first (zero: give up at once)
     * @return how many leases were given up
     * @throws InterruptedException if interrupted while waiting
     */
    int handOverLeases(Duration wait) throws InterruptedException;

    /**
     * Opens admission again after {@link #handOverLeases}, for a node whose store's connections are started again
     * after a stop (a Spring context stopped and started, a checkpoint and restore): firings ask the store for
     * leases as before. Does nothing while admission is open.
     */
    default void reopenAdmission() {
    }

    /**
     * How many lease releases failed on this node (each also a WARN; the lease then expires by its TTL).
     *
     * @return failed releases since the engine was created
     */
    long releaseFailures();

    /**
     * Recovers the fire times of {@code job} that no node ran (its misfire policy) and the runs that died
     * holding their lease (its delivery), as a start-up or background pass: each recovery run is a run
     * of {@code body} on the calling thread, under a lease, one at a time per job on this node.
     *
     * @param job      the job
     * @param recovery how its lost fire times are recovered
     * @param body     the work of one recovery run
     * @return {@code false} if the store could not be asked, or a recovery run could not start while the job's
     *         lease was held (try again soon), else {@code true}
     * @throws NullPointerException if an argument is null
     */
    boolean recoverMissedFireTimes(JobOptions job, RecoveryOptions recovery, Runnable body);

    /**
     * When a fire time of {@code job} that is too young to judge now becomes judgeable: the time at
     * which another {@link #recoverMissedFireTimes recovery pass} may find work.
     *
     * @param job      the job
     * @param recovery how its lost fire times are recovered
     * @return that time, or empty when nothing is pending
     */
    Optional<Instant> recoveryPendingUntil(JobOptions job, RecoveryOptions recovery);

    /**
     * Runs the pending attempt of a fire time of {@code job} whose run threw ({@link JobOptions#retry()}), if the store
     * holds one and it is due by the store's clock: on the calling thread, under a lease with a fencing token above
     * the failed attempt's, once in the cluster. Any node may run it, not only the one that failed: call this from a
     * background pass on every node, at least every minute and at {@link #retryDueAt}. Spring's and Quartz's passes do.
     *
     * @param job  the job
     * @param body the job's work ({@link RunContext#attempt()} tells the attempt)
     * @return {@code false} if the store could not be asked, else {@code true}
     * @throws NullPointerException if an argument is null
     */
    boolean runDueRetry(JobOptions job, Runnable body);

    /**
     * When the pending attempt of a failed fire time of {@code job} is due, on this engine's clock (the store judges
     * it on its own clock; the time is moved by this node's offset from it, read with the record).
     *
     * @param job the job
     * @return that time, or empty when none is pending (or the store cannot be read)
     */
    Optional<Instant> retryDueAt(JobOptions job);

    /** Waits (up to five seconds) for the releases still in flight, then stops the keep-alive thread; the store stays open. */
    void close();
}
