package io.jobguard.examples.fault;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** What the suite's jobs do, the same under both libraries: names, schedules, how long a run takes. */
final class JobWork {

    /** Every second, RETURN: a busy or already-run firing is skipped. */
    static final String EVERY_SECOND = "every-second";
    /** Every two seconds, WAIT. */
    static final String EVERY_2S_WAIT = "every-2s-wait";
    /** The batch namespace. */
    static final String BATCH = "pool";
    /** How long a guarded job holds its lease without renewal (job-guard) or at most (ShedLock). */
    static final Duration LEASE = Duration.ofSeconds(5);
    /** A run of the every-second job takes this long, so that a fault often meets a run in flight. */
    static final Duration EVERY_SECOND_WORK = Duration.ofMillis(400);
    /** A run of the WAIT job takes this long. */
    static final Duration WAIT_WORK = Duration.ofMillis(700);
    /**
     * The retry job (job-guard only: ShedLock has no retries): by default every 10 s
     * ({@code fault.retry-cron}), 3 attempts 1 s apart; attempts 1 and 2 of every fire time fail wherever they
     * run, attempt 3 succeeds.
     */
    static final String RETRYING = "retry-failing";
    /**
     * The retry job's schedule unless {@code fault.retry-cron} names another. Every 10 s, not 5: a fire time's three
     * attempts take 3.5 s from the first start (3 x 500 ms of work, 2 x 1 s of back-off), and the node whose clock is
     * 3 s ahead starts the next fire time 3 s early, which supersedes an attempt still pending; with 5 s, a fire time
     * whose first attempt ran on the node at 0 or -2 s was superseded before its third attempt even without a fault.
     */
    static final String RETRY_CRON = "*/10 * * * * *";
    /** The retry job's attempts per fire time; the last one succeeds. */
    static final int RETRY_ATTEMPTS = 3;
    /**
     * An attempt of the retry job takes this long before it fails or succeeds, so that a runner polling the
     * ledgers every 20 ms can kill a node while it runs one.
     */
    static final Duration RETRY_WORK = Duration.ofMillis(500);

    private static final int POOL = 12;
    private static final int KEYS_PER_BATCH = 3;

    private JobWork() {
    }

    /** Three distinct keys of a pool of twelve, so that batches of the three nodes often conflict. */
    static List<String> batchKeys() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return random.ints(0, POOL).distinct().limit(KEYS_PER_BATCH).mapToObj(i -> "K" + i).sorted().toList();
    }

    static void holdBatch() throws InterruptedException {
        Thread.sleep(ThreadLocalRandom.current().nextLong(50, 150));
    }
}
