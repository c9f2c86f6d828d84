package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.FiringPermit;
import io.jobguard.MisfirePolicy;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One recovery owner per job and node: the background pass and the scheduler thread of one node do not race for
 * the same missed fire times. While the background pass runs a catch-up, the scheduler thread's firing of the job
 * waits for it (instead of meeting its lease, giving up as {@code BUSY} and leaving its fire time behind), then
 * catches up the rest in order and runs its own fire time.
 */
@WithRedis
class RecoveryOwnerIT {

    private static final FireTimeSchedule EVERY_SECOND = after -> after.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);

    private final RedisServerProcess redis;
    private LettuceConnectionFactory factory;
    private JobGuard guard;
    private RedisLeaseStore store;

    RecoveryOwnerIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @AfterEach
    void close() {
        guard.close();
        store.close();
        factory.destroy();
    }

    @Test
    void theSchedulerThreadWaitsForItsNodesBackgroundPassAndLosesNoFireTime() throws Exception {
        factory = redis.connectionFactory(Duration.ofSeconds(5));
        store = RedisLeaseStore.create(factory, "jgowner");
        guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId("one").build())
                .skewTolerance(Duration.ofSeconds(2)).build());
        List<JobEvent> events = new CopyOnWriteArrayList<>();
        guard.addListener(events::add);
        MissedFireTimeRecovery scheduler = ((JobGuardEngine) guard).missedFireTimeRecovery();
        MissedFireTimeRecovery background = ((JobGuardEngine) guard).missedFireTimeRecovery();
        JobOptions job = JobOptions.builder("owner", Duration.ofSeconds(10)).build();
        RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(MisfirePolicy.RUN_ALL)
                .catchUpWindow(Duration.ofHours(1)).catchUpMax(50).delivery(Delivery.AT_MOST_ONCE).maxAttempts(3)
                .schedule(EVERY_SECOND).build();
        List<Instant> started = new CopyOnWriteArrayList<>();
        Runnable body = () -> started.add(RunContext.current().orElseThrow().nominalFireTime());
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(8);
        assertThat(fire(scheduler, job, recovery, t0, body)).isEqualTo(RunOutcome.RAN);

        // the background pass catches up the settled fire times; its first catch-up run holds on
        CountDownLatch inCatchUp = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Runnable held = () -> {
            body.run();
            inCatchUp.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        CompletableFuture<Boolean> pass = CompletableFuture.supplyAsync(() -> background.recover(job, recovery, held));
        assertThat(inCatchUp.await(20, TimeUnit.SECONDS)).isTrue();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        CompletableFuture<RunOutcome> firing = CompletableFuture.supplyAsync(() -> fire(scheduler, job, recovery, now, body));
        // longer than the job's busy grace (1 s): without one owner the firing would have given up as BUSY by now
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> !firing.isDone());
        release.countDown();
        assertThat(pass.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(firing.get(30, TimeUnit.SECONDS)).isEqualTo(RunOutcome.RAN);

        assertThat(events).noneMatch(e -> e.outcome() == RunOutcome.BUSY || e.outcome() == RunOutcome.MISSED);
        for (Instant t = t0; !t.isAfter(now); t = t.plusSeconds(1)) {
            Instant fireTime = t;
            assertThat(started).as("runs of %s", t).filteredOn(fireTime::equals).hasSize(1);
        }
        assertThat(started).isSorted();
    }

    private static RunOutcome fire(MissedFireTimeRecovery node, JobOptions job, RecoveryOptions recovery, Instant t,
                                   Runnable body) {
        Admission admission = node.admit(job, recovery, t, body);
        if (!admission.granted()) {
            return admission.refusal();
        }
        try (FiringPermit permit = admission.permit()) {
            body.run();
            return permit.finish(null);
        }
    }
}
