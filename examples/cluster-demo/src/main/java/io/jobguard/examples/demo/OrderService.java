package io.jobguard.examples.demo;

import io.jobguard.batch.BatchAttempt;
import io.jobguard.batch.BatchLease;
import io.jobguard.batch.BatchLocks;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Generates purchase orders on every node and locks each order's SKUs (50 to 300 of a pool of
 * 2,000) all-or-nothing while "processing" it; overlapping orders conflict instead of both running.
 */
@Service
class OrderService {

    private final BatchLocks locks;
    private final StringRedisTemplate redis;

    OrderService(BatchLocks locks, StringRedisTemplate redis) {
        this.locks = locks;
        this.redis = redis;
    }

    @Scheduled(fixedDelay = 200)
    public void processNextOrder() throws InterruptedException {
        Set<String> skus = new LinkedHashSet<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int lines = random.nextInt(50, 301);
        while (skus.size() < lines) {
            skus.add("SKU-" + random.nextInt(2000));
        }
        BatchAttempt attempt = locks.tryAcquire("sku", skus, Duration.ofSeconds(30));
        if (!attempt.acquired()) {
            redis.opsForValue().increment(DemoKeys.CONFLICTS);
            return;
        }
        try (BatchLease lease = attempt.orElseThrow()) {
            redis.opsForValue().increment(DemoKeys.ACQUIRED);
            Thread.sleep(random.nextInt(20, 120));
            if (!lease.isValid()) {
                throw new IllegalStateException("lease lost while processing an order");
            }
        }
    }
}
