package io.jobguard.examples.readme;

import io.jobguard.BatchLocked;
import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.shedlock.JobGuardLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The code snippets of the docs, compiled with the build so that none of them rots. Each block
 * between {@code // README: <section>} and {@code // end} is copied verbatim into a page (docs/plain-java.md,
 * docs/batch-locks.md, docs/shedlock.md) under a {@code <!-- from: ...ReadmeSnippets.java#<section> -->} marker, and
 * examples/quickstart's {@code ReadmeTest} fails when the page's block differs from it.
 */
final class ReadmeSnippets {

    private ReadmeSnippets() {
    }

    static class Quickstart {
        // README: quickstart
        @Scheduled(cron = "0 */5 * * * *")
        @ClusterSingleton(type = GuardType.RETURN, lease = "10m")
        void sendInvoices() {
            // runs once per 5-minute slot in the whole cluster
        }
        // end
    }

    static RunOutcome plainJava(RedisConnectionFactory redis, Instant nominalFireTime) {
        // README: plain Java
        RedisLeaseStore store = RedisLeaseStore.create(redis);             // key prefix "jobguard"
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().namespace("billing").build());

        JobOptions invoices = JobOptions.builder("invoices", Duration.ofMinutes(10)).type(GuardType.WAIT).build();
        RunOutcome outcome = guard.run(invoices, nominalFireTime, () -> sendInvoices());
        // end
        return outcome;
    }

    static void programmaticBatch(BatchLocks locks, PurchaseOrder order) {
        // README: batch locks
        BatchAttempt attempt = locks.tryAcquire("sku", order.skus(), Duration.ofMinutes(2));
        if (!attempt.acquired()) {
            throw new IllegalStateException("SKUs busy: " + attempt.conflicts()); // which keys, held by whom
        }
        try (BatchLease lease = attempt.orElseThrow()) {
            reserve(order, lease.fencingToken());                         // all 3,000 SKUs are ours
        }                                                                 // released: one script call per chunk
        // end
    }

    static class Reservations {
        // README: @BatchLocked
        @BatchLocked(namespace = "sku", keys = "#order.skus()", type = GuardType.WAIT, lease = "2m", waitFor = "10s")
        public void reserve(PurchaseOrder order) {
            // every SKU of the order is locked while this runs; never runs unlocked
        }
        // end
    }

    static class ShedLockRoute {
        // README: ShedLock provider
        @Bean
        LockProvider lockProvider(RedisConnectionFactory redis) {
            return JobGuardLockProvider.builder(redis).namespace("billing").build();   // @SchedulerLock unchanged
        }
        // end
    }

    /** An order and its SKUs. */
    record PurchaseOrder(String id, Set<String> skus) {
        List<String> lines() {
            return List.copyOf(skus);
        }
    }

    private static void sendInvoices() {
    }

    private static void reserve(PurchaseOrder order, long fencingToken) {
        if (order.lines().isEmpty() || fencingToken < 0) {
            throw new IllegalArgumentException("empty order " + order.id());
        }
    }
}
