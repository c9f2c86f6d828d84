package io.jobguard.batch;

import java.time.Duration;

/**
 * One finished batch acquisition attempt.
 *
 * @param namespace the batch namespace
 * @param keyCount  how many distinct keys were asked for
 * @param result    how it ended
 * @param elapsed   how long it took, waits included
 */
public record BatchLockEvent(String namespace, int keyCount, BatchResult result, Duration elapsed) {
}
