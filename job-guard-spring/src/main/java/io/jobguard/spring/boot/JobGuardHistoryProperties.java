package io.jobguard.spring.boot;

import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The run history's defaults, bound from {@code jobguard.history.*}; immutable once bound. A job's own
 * {@code historySize} and {@code historyRetention} (annotation, {@code jobguard.jobs.<name>.*}) win.
 *
 * @param size      The most history entries kept per job (default 2,000: at most 0.24 MiB of Redis memory per job,
 *                  0.73 MiB when every run fails with a 200-character message; docs/benchmarks.md).
 *                  {@code jobguard.history-size} is its older name and means the same; setting both to different
 *                  values fails the startup.
 * @param retention How long history entries are kept, by fire time (default 14d); 0 keeps them by count only.
 */
public record JobGuardHistoryProperties(Integer size, @DefaultValue("14d") Duration retention) {
}
