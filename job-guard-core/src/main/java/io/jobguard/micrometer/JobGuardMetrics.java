package io.jobguard.micrometer;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardListener;
import io.jobguard.RunContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link JobGuard}'s outcomes as the meters named in {@link MetricNames}. Bind it to a
 * registry once; it registers itself as a listener of the engine.
 */
public final class JobGuardMetrics implements MeterBinder, JobGuardListener {

    private final JobGuard guard;
    private final BoundRegistry registry = new BoundRegistry("JobGuardMetrics");
    private final AtomicReference<Duration> clockSkew = new AtomicReference<>();
    private final Map<List<String>, AtomicReference<Double>> lastRuns = new ConcurrentHashMap<>();

    /**
     * Creates the binder.
     *
     * @param guard the engine to observe
     */
    public JobGuardMetrics(JobGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        registry.bind(meterRegistry);
        Tags ns = Tags.of(MetricNames.TAG_NAMESPACE, guard.config().namespace());
        Gauge.builder(MetricNames.LEASES_ACTIVE, guard, (ToDoubleFunction<JobGuard>) JobGuard::activeLeases)
                .tags(ns).description("Leases this node holds now").register(meterRegistry);
        Gauge.builder(MetricNames.CLOCK_SKEW, clockSkew, s -> s.get() == null ? Double.NaN : s.get().toNanos() / 1e9)
                .tags(ns).baseUnit("seconds").description("This node's clock minus the Redis server clock")
                .register(meterRegistry);
        Gauge.builder(MetricNames.CLOCK_SKEW_TOLERANCE, guard, g -> g.config().skewTolerance().toNanos() / 1e9)
                .tags(ns).baseUnit("seconds").description("The configured clock skew tolerance")
                .register(meterRegistry);
        guard.addListener(this);
    }

    /**
     * Records the latest clock-skew measurement for the {@link MetricNames#CLOCK_SKEW} gauge.
     *
     * @param skew this node's clock minus the store's clock
     */
    public void recordClockSkew(Duration skew) {
        clockSkew.set(skew);
    }

    @Override
    public void onJobEvent(JobEvent event) {
        MeterRegistry r = registry.get();
        if (r == null) {
            return;
        }
        Tags tags = Tags.of(MetricNames.TAG_JOB, event.job(), MetricNames.TAG_OUTCOME, event.outcome().name(),
                MetricNames.TAG_NAMESPACE, event.namespace());
        Counter.builder(MetricNames.JOB_RUNS).tags(tags).description("Guarded firings by outcome").register(r)
                .increment();
        Timer.builder(MetricNames.JOB_ACQUIRE).tags(tags).description("Time to decide a firing, including waits")
                .register(r).record(event.acquireTime());
        if (event.outcome().bodyStarted()) {
            lastRun(r, event);
            Timer.builder(MetricNames.JOB_DURATION).tags(tags).description("Run time of guarded job bodies")
                    .register(r).record(event.runTime());
        }
    }

    /** Moves the job's last-run gauge forward to this run's fire time (never back: run-now and catch-up can be older). */
    private void lastRun(MeterRegistry r, JobEvent event) {
        double fireTime = event.nominalFireTime().toEpochMilli() / 1e3;
        AtomicReference<Double> last = lastRuns.computeIfAbsent(List.of(event.namespace(), event.job()), key -> {
            AtomicReference<Double> value = new AtomicReference<>(fireTime);
            Gauge.builder(MetricNames.JOB_LAST_RUN, value, AtomicReference::get)
                    .tags(MetricNames.TAG_JOB, event.job(), MetricNames.TAG_NAMESPACE, event.namespace())
                    .baseUnit("seconds").description("Nominal fire time of the newest run that ended on this node")
                    .register(r);
            return value;
        });
        last.accumulateAndGet(fireTime, Math::max);
    }

    @Override
    public void onLeaseLost(RunContext context) {
        registry.leaseLost(context.job(), guard.config().namespace());
    }
}
