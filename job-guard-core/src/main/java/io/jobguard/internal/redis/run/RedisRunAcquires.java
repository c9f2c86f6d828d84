package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.internal.redis.ScriptRunner;
import io.jobguard.internal.redis.StoreCalls;
import io.jobguard.internal.redis.fleet.FleetLeads;
import io.jobguard.internal.redis.loss.HistoryEpochs;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseRecord;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;
import org.springframework.data.redis.connection.ReturnType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The acquire of a run lease for {@link RedisLeaseStore}: one {@code run-acquire.lua} call. The call carries what
 * this node remembers of the job (the epoch and the highest token it saw, the latest fire time it saw handled) and of
 * the fleet's clock leads, and the node remembers what the reply teaches it. A first meeting with a lost epoch is
 * judged again once the fleet's leads are re-published; with durable acquire, a grant too few replicas acknowledged
 * is given back.
 */
public final class RedisRunAcquires {

    private static final LuaScript ACQUIRE = LuaScript.load("run-acquire");

    private final ScriptRunner scripts;
    private final KeySchema keys;
    private final ReplicaAcknowledgement durable;
    private final HistoryEpochs epochs = new HistoryEpochs();
    private final LossWindows lossWindows;
    private final FleetLeads fleetLeads;
    private final RedisRunReleases releases;
    private final ReleaseWaiters waiters;

    public RedisRunAcquires(ScriptRunner scripts, KeySchema keys, ReplicaAcknowledgement durable, LossWindows lossWindows,
                     FleetLeads fleetLeads, RedisRunReleases releases, ReleaseWaiters waiters) {
        this.scripts = scripts;
        this.keys = keys;
        this.durable = durable;
        this.lossWindows = lossWindows;
        this.fleetLeads = fleetLeads;
        this.releases = releases;
        this.waiters = waiters;
    }

    /** The store's acquire: see {@link RedisLeaseStore#acquireRun(RunLeaseRequest, AcquireMode)}. */
    public AcquireResult acquire(RunLeaseRequest r, AcquireMode mode) {
        StoreCalls.call(() -> fleetLeads.beforeAdmission(r.nodeId(),
                RunAcquireArguments.millis(r.nominalFireTime()), epochs.lastSeen(r.job()).isEmpty()),
                "publish this node's clock lead");
        if (mode.kind() == AcquireMode.Kind.REGULAR) {
            fleetLeads.regularAsk(RunAcquireArguments.millis(r.nominalFireTime()));
        }
        RedisRunReleases.InFlight release = releases.inFlight(r.job());
        AcquireResult result = acquireRun(r, mode, false);
        if (release != null && result.status() == AcquireResult.Status.BUSY && result.holder() != null
                && release.ownerToken().equals(result.holder().ownerToken())) {
            // this node's release of the job's previous run, sent before this acquire, had not run yet (its script
            // was retried after a NOSCRIPT): once it is answered the job is free, or held by another node
            releases.awaitInFlight(r.job(), r.lease());
            result = acquireRun(r, mode, false);
        }
        return result;
    }

    private AcquireResult acquireRun(RunLeaseRequest r, AcquireMode mode, boolean judgedAgain) {
        JobId job = r.job();
        // this node's release of the job still in flight is not awaited: sent on the same connection before this
        // acquire, Redis runs it first (RedisRunReleases.releaseAsync; the rare exception is asked again above)
        long[] acked = {Long.MAX_VALUE};
        String seenEpoch = epochs.lastSeen(job); // after a recent loss a job this node never saw may have run before it:
        String lastEpoch = seenEpoch.isEmpty() && lossWindows.recentLoss(job) ? "0" : seenEpoch;
        LossWindows.Window window = lossWindows.window(job, lastEpoch, RunAcquireArguments.configuredWindowMillis(r));
        RunAcquireArguments arguments = new RunAcquireArguments(r, mode, lastEpoch, window, epochs.highestToken(job),
                epochs.handled(job), waiters.waiting(job));
        List<Object> reply = StoreCalls.call(() -> scripts.<List<Object>>run(ACQUIRE, ReturnType.MULTI,
                keys.runAcquire(job, r.nominalFireTime()), arguments.argv(),
                (connection, answer) -> {
                    if (durable.enabled() && "ACQUIRED".equals(ScriptRunner.text(answer.get(0)))) {
                        acked[0] = durable.await(connection);
                    }
                }), "acquire run lease of " + job);
        RunAcquireReply answer = RunAcquireReply.decode(reply);
        String epoch = answer.epoch();
        epochs.saw(job, epoch);
        String status = answer.status().name();
        if (!(answer instanceof RunAcquireReply.HistoryLost) || epoch.equals(lastEpoch)) {
            // a refusal by the first call that meets an unknown epoch is judged again below: it handles nothing yet
            epochs.answered(job, status, r.nominalFireTime());
        }
        lossWindows.replied(job, epoch, status,
                answer instanceof RunAcquireReply.HistoryLost lost ? lost.refusedUntilMillis() : -1);
        if (answer instanceof RunAcquireReply.HistoryLost && !judgedAgain && !epoch.equals(lastEpoch)
                && fleetLeads.awaitRepublication(job, epoch)) {
            // this node just learned of the loss: judged with the fleet's leads once they are re-published
            return acquireRun(r, mode, true);
        }
        if (answer instanceof RunAcquireReply.Acquired granted) {
            epochs.sawToken(job, granted.fencingToken());
            lossWindows.granted(RunAcquireArguments.millis(r.nominalFireTime()), granted.acquiredAtMillis());
            if (acked[0] < durable.replicas()) {
                refuseNotDurable(r, acked[0]);
            }
            return granted.result();
        }
        if (answer instanceof RunAcquireReply.NotDue notDue) {
            return AcquireResult.refused(AcquireResult.Status.NOT_DUE, null, Duration.ofMillis(notDue.waitMillis()));
        }
        if (answer instanceof RunAcquireReply.Paused) {
            return AcquireResult.refused(AcquireResult.Status.PAUSED, null, null);
        }
        if (answer instanceof RunAcquireReply.Recovery recovery) {
            return recovery.result();
        }
        if (answer instanceof RunAcquireReply.HistoryLost lost) {
            // the fire times after 'after' and before this one were refused with it, and this caller reports them
            return new AcquireResult(AcquireResult.Status.HISTORY_LOST, -1, null, HistoryEpochs.record(lost.epochValue()),
                    lossWindows.refusalLeft(job), lost.refusedAfter());
        }
        RunAcquireReply.Held held = (RunAcquireReply.Held) answer;
        LeaseRecord holder = held.holder();
        epochs.sawToken(job, holder.fencingToken());
        if (holder.acquiredAt() != null) {
            lossWindows.sawHolder(job, holder.nodeId(), holder.acquiredAt().toEpochMilli());
        }
        return AcquireResult.refused(held.status(), holder, held.ttl());
    }

    /** Durable acquire: the lease was granted but too few replicas acknowledged it; give it back and fail. */
    private void refuseNotDurable(RunLeaseRequest r, long acked) {
        String why = acked < 0 ? "durable acquire is not supported on Redis Cluster (WAIT reaches one node only)"
                : "the acquire was acknowledged by " + acked + " of " + durable.replicas() + " required replicas within "
                + durable.timeout();
        try {
            releases.release(r, Duration.ZERO, RunEnd.of("", Duration.ZERO));
        } catch (LeaseStoreException e) {
            why += "; the lease could not be given back (" + e.getMessage() + ") and expires by TTL";
        }
        throw new LeaseStoreException("job-guard refused the run lease of " + r.job() + " for "
                + r.nominalFireTime() + ": " + why);
    }
}
