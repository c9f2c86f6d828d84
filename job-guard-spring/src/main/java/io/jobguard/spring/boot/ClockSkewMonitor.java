package io.jobguard.spring.boot;

import io.jobguard.JobGuard;
import io.jobguard.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Measures this node's clock against Redis {@code TIME} periodically on its own daemon thread,
 * feeds the measurements to the sinks and logs a WARN when the skew exceeds half the skew
 * tolerance. A failed measurement is logged and retried at the next interval; the thread never
 * dies from a store error.
 */
final class ClockSkewMonitor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ClockSkewMonitor.class);

    private final JobGuard guard;
    private final Duration interval;
    private final List<ClockSkewSink> sinks;
    private ScheduledExecutorService executor;

    ClockSkewMonitor(JobGuard guard, Duration interval, List<ClockSkewSink> sinks) {
        if (interval == null || interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("jobguard.clock-skew-check-interval must be positive, got " + interval);
        }
        this.guard = guard;
        this.interval = interval;
        this.sinks = List.copyOf(sinks);
    }

    Duration measure() {
        try {
            Duration skew = guard.measureClockSkew();
            for (ClockSkewSink sink : sinks) {
                sink.record(skew);
            }
            Duration half = guard.config().skewTolerance().dividedBy(2);
            if (skew.abs().compareTo(half) > 0) {
                log.warn("job-guard: node {} clock differs from Redis TIME by {} (more than half the skew tolerance "
                        + "{}); fire times may run twice once the skew exceeds the tolerance", guard.config().nodeId(),
                        skew, guard.config().skewTolerance());
            } else {
                log.debug("job-guard: node {} clock skew against Redis TIME is {}", guard.config().nodeId(), skew);
            }
            return skew;
        } catch (RuntimeException e) {
            log.warn("job-guard: node {} could not measure clock skew against Redis: {}", guard.config().nodeId(),
                    e.toString());
            return null;
        }
    }

    @Override
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        executor = DaemonThreads.scheduler("jobguard-clock-skew");
        executor.scheduleWithFixedDelay(this::measure, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
