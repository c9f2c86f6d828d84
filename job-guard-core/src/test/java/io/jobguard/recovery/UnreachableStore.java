package io.jobguard.recovery;

import io.jobguard.store.AcquireMode;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.FleetView;
import io.jobguard.store.JobId;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.LeaseStoreException;
import io.jobguard.store.OutcomeRecording;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunLeaseRequest;
import io.jobguard.store.RunRecord;
import io.jobguard.store.RunRecovery;
import io.jobguard.store.ScheduleClaim;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A node's real store, for {@link MissedFireTimeRecoveryModelIT}: while the node is unreachable, a third of its acquire
 * calls (at random) fail before they are sent, as when Redis cannot be reached from the node (the engine answers
 * {@code STORE_ERROR}; nothing was written). Everything else goes to the real store. After a call that declared the
 * fire times it passes over (a gap's first catch-up, granted, or a miss declaration), or a refusal after a loss of the
 * store's history that passed over fire times before its own, it runs {@code afterDeclaring}: the test kills the node
 * there, between deciding and reporting or running.
 */
final class UnreachableStore implements LeaseStore, RunRecovery, OutcomeRecording, FleetView {

    private final LeaseStore real;
    private final BooleanSupplier unreachable;
    private final Consumer<String> failed;
    private final BiConsumer<Instant, AcquireResult> afterDeclaring;

    /**
     * @param real           the node's real store
     * @param unreachable    whether the node is unreachable now
     * @param failed         told of each failed call (its kind and fire time)
     * @param afterDeclaring given the fire time and the answer of a call that declared fire times (it may throw to
     *                       kill the node there)
     */
    UnreachableStore(LeaseStore real, BooleanSupplier unreachable, Consumer<String> failed,
                     BiConsumer<Instant, AcquireResult> afterDeclaring) {
        this.real = real;
        this.unreachable = unreachable;
        this.failed = failed;
        this.afterDeclaring = afterDeclaring;
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest request) {
        return acquireRun(request, AcquireMode.REGULAR);
    }

    @Override
    public AcquireResult acquireRun(RunLeaseRequest request, AcquireMode mode) {
        if (unreachable.getAsBoolean() && ThreadLocalRandom.current().nextInt(3) == 0) {
            failed.accept(mode.kind() + " T=" + request.nominalFireTime().toEpochMilli());
            throw new LeaseStoreException("Redis unreachable (injected before the call was sent)");
        }
        AcquireResult result = real.capability(RunRecovery.class).orElseThrow().acquireRun(request, mode);
        boolean declares = !mode.declaredLost().isEmpty() || !mode.declaredMissed().isEmpty();
        // a refusal after a loss that moved the run record over fire times before it (its record names where they
        // start) decides them too
        boolean refusedWithOthers = result.status() == AcquireResult.Status.HISTORY_LOST && result.record() != null;
        if (refusedWithOthers
                || declares && (result.status() == AcquireResult.Status.ACQUIRED || result.status() == AcquireResult.Status.MISSED)) {
            afterDeclaring.accept(request.nominalFireTime(), result);
        }
        return result;
    }

    @Override
    public boolean renewRun(RunLeaseRequest request) {
        return real.renewRun(request);
    }

    @Override
    public boolean releaseRun(RunLeaseRequest request, Duration cooldown) {
        return real.releaseRun(request, cooldown);
    }

    @Override
    public CompletionStage<Boolean> releaseRunAsync(RunLeaseRequest request, Duration cooldown, RunEnd end) {
        return outcomes().releaseRunAsync(request, cooldown, end);
    }

    @Override
    public void recordOutcome(JobId job, Instant fireTime, String nodeId, String outcome, int historySize) {
        outcomes().recordOutcome(job, fireTime, nodeId, outcome, historySize);
    }

    @Override
    public ReleaseWatch watchRunReleases(JobId job) {
        return real.watchRunReleases(job);
    }

    @Override
    public Optional<Instant> reachedByLaterNodes() {
        return fleet().reachedByLaterNodes();
    }

    @Override
    public Optional<RunRecord> runRecord(JobId job) {
        return real.capability(RunRecovery.class).orElseThrow().runRecord(job);
    }

    @Override
    public List<ScheduleClaim> publishSchedule(JobId job, String nodeId, String schedule, Duration ttl) {
        return fleet().publishSchedule(job, nodeId, schedule, ttl);
    }

    @Override
    public Instant serverTime() {
        return real.serverTime();
    }

    @Override
    public boolean supportsFencing() {
        return real.supportsFencing();
    }

    @Override
    public void admissionClosed() {
        fleet().admissionClosed();
    }

    @Override
    public String blockingKey(RunLeaseRequest request, AcquireResult.Status status) {
        return real.blockingKey(request, status);
    }

    /** Itself for the capabilities whose calls it passes on (the real store has them), the real store's otherwise. */
    @Override
    public <T> Optional<T> capability(Class<T> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : real.capability(type);
    }

    private OutcomeRecording outcomes() {
        return real.capability(OutcomeRecording.class).orElseThrow();
    }

    private FleetView fleet() {
        return real.capability(FleetView.class).orElseThrow();
    }

    /** The real store is closed with its node. */
    @Override
    public void close() {
        // nothing of its own
    }
}
