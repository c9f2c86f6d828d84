package io.jobguard.internal.engine;

import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;

import java.time.Duration;

/** A job's history size and retention: its own when it sets them, else the engine's defaults. */
final class HistoryLimits {

    private HistoryLimits() {
    }

    static int size(JobGuardConfig config, JobOptions job) {
        return job.historySize() != null ? job.historySize() : config.historySize();
    }

    static Duration retention(JobGuardConfig config, JobOptions job) {
        return job.historyRetention() != null ? job.historyRetention() : config.historyRetention();
    }
}
