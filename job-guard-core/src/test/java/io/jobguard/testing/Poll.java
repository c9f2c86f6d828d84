package io.jobguard.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The harness's own tiny wait loop. It is used instead of Awaitility so that modules consuming the
 * test-jar do not need Awaitility just to start a server.
 */
final class Poll {

    private static final long INTERVAL_MILLIS = 25;

    private Poll() {
    }

    /** Polls {@code condition} until it holds or {@code timeout} passes; returns whether it held. */
    static boolean until(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
