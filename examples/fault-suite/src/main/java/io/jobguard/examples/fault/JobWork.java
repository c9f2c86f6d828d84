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
