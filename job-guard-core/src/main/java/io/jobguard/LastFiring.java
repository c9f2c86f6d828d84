package io.jobguard;

import java.time.Instant;

/**
 * The last firing of a job that this node's engine decided through {@link JobGuard#fire} (or
 * {@link JobGuard#run}): its fire time and how it ended.
 *
 * @param nominalFireTime its fire time
 * @param outcome         its outcome: the refusal, or how its run ended
 */
public record LastFiring(Instant nominalFireTime, RunOutcome outcome) {
}
