package io.jobguard.memory;

import io.jobguard.Admission;
import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.ReleaseWatch;
import io.jobguard.store.RunLeaseRequest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression: a WAIT firing on a store that never signals releases (and does not know when the
 * blocking lease ends) used to sleep its whole {@code waitFor} before asking again; it must ask
 * again every {@code waitPollInterval}.
 */
class WaitWithoutReleaseSignalsTest {

    private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");

    @Test
    void aWaitingFiringAsksAgainEveryPollIntervalWhenNoSignalComes() throws Exception {
        SilentStore store = new SilentStore(InMemoryLeaseStore.create());
        JobGuardConfig config = JobGuardConfig.builder().waitPollInterval(Duration.ofMillis(100)).build();
        JobGuard a = JobGuard.create(store, config.toBuilder().node(NodeConfig.builder().nodeId("a").build()).build());
        JobGuard b = JobGuard.create(store, config.toBuilder().node(NodeConfig.builder().nodeId("b").build()).build());
        JobOptions job = JobOptions.builder("silent", Duration.ofSeconds(60)).type(GuardType.WAIT)
                .waitFor(Duration.ofSeconds(30)).build();

        Admission held = a.admit(job, T);
        assertThat(held.granted()).isTrue();
        CompletableFuture<RunOutcome> waiting = CompletableFuture.supplyAsync(() -> b.run(job, T.plusSeconds(60), () -> {
        }));
        assertThat(store.refused.await(5, TimeUnit.SECONDS)).as("b found the lease busy").isTrue();
        held.permit().finish(null);

        // Far less than waitFor (30 s): the waiter polled instead of sleeping to its deadline.
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo(RunOutcome.RAN);
        a.close();
        b.close();
    }

    /**
     * A store that neither signals releases ({@link ReleaseWatch#never()}, so the engine polls)
     * nor says when a blocking lease ends.
     */
    private static final class SilentStore implements LeaseStore {
        private final LeaseStore delegate;
        private final CountDownLatch refused = new CountDownLatch(1);

        SilentStore(LeaseStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public AcquireResult acquireRun(RunLeaseRequest request) {
            AcquireResult r = delegate.acquireRun(request);
            if (r.status() == AcquireResult.Status.ACQUIRED) {
                return r;
            }
            refused.countDown();
            return AcquireResult.refused(r.status(), null, null);
        }

        @Override
        public boolean renewRun(RunLeaseRequest request) {
            return delegate.renewRun(request);
        }

        @Override
        public boolean releaseRun(RunLeaseRequest request, Duration cooldown) {
            return delegate.releaseRun(request, cooldown);
        }

        @Override
        public ReleaseWatch watchRunReleases(JobId job) {
            return ReleaseWatch.never();
        }

        @Override
        public String blockingKey(RunLeaseRequest request, AcquireResult.Status status) {
            return delegate.blockingKey(request, status);
        }

        @Override
        public Instant serverTime() {
            return delegate.serverTime();
        }

        @Override
        public boolean supportsFencing() {
            return delegate.supportsFencing();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
