package io.jobguard.examples.fault;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The same jobs guarded by ShedLock's Redis provider ({@code fault.library=shedlock}), configured
 * as its documentation suggests: {@code lockAtMostFor} = the lease, {@code lockAtLeastFor} = half
 * the period (it must stay below the period, or a node would skip its own next firing). ShedLock
 * has no fire time, fencing token or waiting: the fire time recorded is the node's scheduler clock
 * at the start rounded to the schedule's period, the token is −1 and the WAIT job skips when locked.
 * The batch job locks each key with ShedLock's {@link LockProvider}, all or nothing.
 */
@Component
@ConditionalOnProperty(name = "fault.library", havingValue = "shedlock")
class ShedLockJobs {

    private final NodeLedger ledger;
    private final LockProvider locks;
    private final Clock schedulerClock;
    private final AtomicLong batches = new AtomicLong();

    ShedLockJobs(NodeLedger ledger, LockProvider locks, SteppableClock schedulerClock) {
        this.ledger = ledger;
        this.locks = locks;
        this.schedulerClock = schedulerClock;
    }

    @Scheduled(cron = "* * * * * *")
    @SchedulerLock(name = JobWork.EVERY_SECOND, lockAtMostFor = "5s", lockAtLeastFor = "500ms")
    public void everySecond() throws InterruptedException {
        run(JobWork.EVERY_SECOND, Duration.ofSeconds(1), JobWork.EVERY_SECOND_WORK);
    }

    @Scheduled(cron = "*/2 * * * * *")
    @SchedulerLock(name = JobWork.EVERY_2S_WAIT, lockAtMostFor = "5s", lockAtLeastFor = "1s")
    public void every2sWait() throws InterruptedException {
        run(JobWork.EVERY_2S_WAIT, Duration.ofSeconds(2), JobWork.WAIT_WORK);
    }

    @Scheduled(fixedDelay = 200)
    public void batch() throws InterruptedException {
        List<String> keys = JobWork.batchKeys();
        List<SimpleLock> held = new ArrayList<>();
        try {
            for (String key : keys) {
                Optional<SimpleLock> lock = locks.lock(new LockConfiguration(Instant.now(), JobWork.BATCH + ":" + key,
                        JobWork.LEASE, Duration.ZERO));
                if (lock.isEmpty()) {
                    return;
                }
                held.add(lock.get());
            }
            long id = batches.incrementAndGet();
            ledger.batchStart(JobWork.BATCH, id, -1, keys);
            JobWork.holdBatch();
            ledger.batchEnd(JobWork.BATCH, id, -1, false);
        } catch (RuntimeException e) {
            // Redis unreachable: the keys taken so far are released below or expire
        } finally {
            held.forEach(ShedLockJobs::unlockQuietly);
        }
    }

    private void run(String job, Duration period, Duration work) throws InterruptedException {
        long now = schedulerClock.millis();
        // Spring fires at (or just after) the fire time on this clock; 250 ms of tolerance for an early wake-up
        Instant nominalFireTime = Instant.ofEpochMilli(Math.floorDiv(now + 250, period.toMillis()) * period.toMillis());
        ledger.start(job, nominalFireTime, -1);
        try {
            Thread.sleep(work.toMillis());
        } finally {
            ledger.end(job, nominalFireTime, -1, false);
        }
    }

    private static void unlockQuietly(SimpleLock lock) {
        try {
            lock.unlock();
        } catch (RuntimeException e) {
            // expires after lockAtMostFor
        }
    }

    /** ShedLock's interceptor and its Redis provider, only in ShedLock mode. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "fault.library", havingValue = "shedlock")
    @EnableSchedulerLock(defaultLockAtMostFor = "5s")
    static class ShedLockConfiguration {

        @Bean
        LockProvider lockProvider(RedisConnectionFactory connectionFactory) {
            return new RedisLockProvider(connectionFactory, "fault");
        }
    }
}
