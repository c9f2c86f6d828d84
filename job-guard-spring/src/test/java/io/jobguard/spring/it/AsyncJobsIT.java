package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.RunOutcome;
import io.jobguard.store.LeaseRecord;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A guarded method that returns a {@code Mono} or a {@code CompletableFuture}, or
 * is a Kotlin {@code suspend} function, holds its run lease, kept alive past its 2 s lease, until the returned work completes; then the
 * lease is released and the outcome recorded.
 */
@WithRedis
class AsyncJobsIT {

    @BeforeEach
    void reset() {
        AsyncApps.reset();
    }

    @AfterEach
    void release() {
        AsyncApps.release.countDown();
    }

    @Test
    void scheduledMonoHoldsTheLeaseUntilItCompletes(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = Nodes.context(redis, AsyncApps.MonoApp.class,
                WebApplicationType.NONE, List.of("jobguard.node-id=mono-node", "jobguard.namespace=async"))) {
            assertHeldUntilReleased(app, "mono", "mono-node");
            // the next firings subscribe again: each is its own guarded run
            await().atMost(Duration.ofSeconds(30)).until(() -> AsyncApps.completed.get() >= 2);
        }
    }

    @Test
    void completableFutureHoldsTheLeaseUntilItCompletes(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = Nodes.context(redis, AsyncApps.FutureApp.class,
                WebApplicationType.NONE, List.of("jobguard.node-id=future-node", "jobguard.namespace=async"))) {
            CompletableFuture<String> result = app.getBean(AsyncApps.FutureJob.class).run();
            assertThat(result).as("returned before the work completes").isNotDone();
            assertHeldUntilReleased(app, "future", "future-node");
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        }
    }

    @Test
    void scheduledSuspendFunctionHoldsTheLeaseUntilItsCoroutineCompletes(RedisServerProcess redis) throws Exception {
        try (ConfigurableApplicationContext app = Nodes.context(redis, AsyncApps.SuspendApp.class,
                WebApplicationType.NONE, List.of("jobguard.node-id=suspend-node", "jobguard.namespace=async"))) {
            assertHeldUntilReleased(app, "suspend", "suspend-node");
            // each later firing calls the suspend function again: its own guarded run
            await().atMost(Duration.ofSeconds(30)).until(() -> AsyncApps.completed.get() >= 2);
        }
    }

    @Test
    void aSuspendFunctionThatFailsAfterSuspendingIsRecordedAsFailedAndReleases(RedisServerProcess redis) {
        try (ConfigurableApplicationContext app = Nodes.context(redis, AsyncApps.SuspendApp.class,
                WebApplicationType.NONE, List.of("jobguard.node-id=suspend-node", "jobguard.namespace=async-fail"))) {
            JobGuard guard = app.getBean(JobGuard.class);
            Throwable thrown = SuspendJobsKt.callBlocking(app.getBean(FailingSuspendJob.class));
            assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("suspended work failed");
            assertThat(guard.lastFiring("suspend-failing")).isPresent();
            assertThat(guard.lastFiring("suspend-failing").orElseThrow().outcome()).isEqualTo(RunOutcome.FAILED);
            await().atMost(Duration.ofSeconds(10)).until(() -> guard.currentLease("suspend-failing").isEmpty());
        }
    }

    private static void assertHeldUntilReleased(ConfigurableApplicationContext app, String job, String node)
            throws InterruptedException {
        JobGuard guard = app.getBean(JobGuard.class);
        assertThat(AsyncApps.started.await(30, TimeUnit.SECONDS)).isTrue();
        LeaseRecord held = guard.currentLease(job).orElseThrow();
        assertThat(held.describeHolder()).isEqualTo(node);
        // still held after three lease lengths: kept alive while the returned work runs
        await().pollDelay(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(guard.currentLease(job)).hasValueSatisfying(l ->
                        assertThat(l.fencingToken()).isEqualTo(held.fencingToken())));
        assertThat(AsyncApps.completed).hasValue(0);
        AsyncApps.release.countDown();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(guard.lastFiring(job)).isPresent();
            assertThat(guard.lastFiring(job).orElseThrow().nominalFireTime()).isEqualTo(held.nominalFireTime());
            assertThat(guard.lastFiring(job).orElseThrow().outcome()).isEqualTo(RunOutcome.RAN);
        });
        assertThat(guard.currentLease(job).filter(l -> l.fencingToken() == held.fencingToken()))
                .as("released once the work completed").isEmpty();
    }
}
