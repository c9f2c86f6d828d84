package io.jobguard.micrometer;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardListener;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link JobGuard}'s outcomes as the meters named in {@link MetricNames}. Bind it to a
 * registry once; it registers itself as a listener of the engine. The schedule gauges of a job exist once its
 * adapter hands the job's schedule to {@link #schedule}, before or after the binding. A job's counters
 * ({@link MetricNames#JOB_RUNS} of every outcome, {@link MetricNames#LEASE_LOST}) exist at 0 from its published
 * schedule or its first firing on this node, whichever comes first: Prometheus' {@code increase()} counts a
 * counter's first increment only when the series was scraped before it.
 */
public final class JobGuardMetrics implements MeterBinder, JobGuardListener {

    private final JobGuard guard;
    private final BoundRegistry registry = new BoundRegistry("JobGuardMetrics");
    private final AtomicReference<Duration> clockSkew = new AtomicReference<>();
    private final Map<List<String>, AtomicReference<Double>> lastRuns = new ConcurrentHashMap<>();
    private final Map<String, Schedule> schedules = new ConcurrentHashMap<>();
    /** By (namespace, job): the jobs whose counters are registered. */
    private final Set<List<String>> counted = ConcurrentHashMap.newKeySet();
    /** By (namespace, job), for the jobs with a schedule: 1 when the newest firing decided here was PAUSED. */
    private final Map<List<String>, AtomicInteger> paused = new ConcurrentHashMap<>();

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
        schedules.values().forEach(schedule -> register(meterRegistry, schedule));
        guard.addListener(this);
    }

    /**
     * Publishes a job's schedule as the gauges {@link MetricNames#JOB_NEXT_FIRE_TIME}, {@link MetricNames#JOB_PERIOD}
     * and {@link MetricNames#JOB_PAUSED}, tagged with the job and this engine's namespace. The suppliers are asked
     * on every read of the gauges; they must be cheap and must not block. Called before the binding, the gauges are
     * registered when it happens.
     *
     * @param job                 the job name
     * @param nextNominalFireTime the job's next nominal fire time after now, or null when its schedule has none
     * @param period              the job's period now (the gap between its next two fire times), or null when it has none
     * @throws IllegalStateException if the job's schedule was published already
     */
    public void schedule(String job, Supplier<Instant> nextNominalFireTime, Supplier<Duration> period) {
        Objects.requireNonNull(job, "job");
        Schedule schedule = new Schedule(job, Objects.requireNonNull(nextNominalFireTime, "nextNominalFireTime"),
                Objects.requireNonNull(period, "period"), new AtomicInteger());
        if (schedules.putIfAbsent(job, schedule) != null) {
            throw new IllegalStateException("JobGuardMetrics: the schedule of job '" + job + "' is published already");
        }
        paused.put(List.of(guard.config().namespace(), job), schedule.paused());
        MeterRegistry r = registry.get();
        if (r != null) {
            register(r, schedule);
        }
    }

    private void register(MeterRegistry r, Schedule schedule) {
        zeroCounters(r, guard.config().namespace(), schedule.job());
        Tags tags = Tags.of(MetricNames.TAG_JOB, schedule.job(), MetricNames.TAG_NAMESPACE, guard.config().namespace());
        Gauge.builder(MetricNames.JOB_NEXT_FIRE_TIME, schedule, s -> seconds(s.nextNominalFireTime().get()))
                .tags(tags).baseUnit("seconds").description("Next nominal fire time of the job by this node's scheduler")
                .register(r);
        Gauge.builder(MetricNames.JOB_PERIOD, schedule, s -> seconds(s.period().get()))
                .tags(tags).baseUnit("seconds").description("Gap between the job's next two fire times")
                .register(r);
        Gauge.builder(MetricNames.JOB_PAUSED, schedule.paused(), AtomicInteger::get)
                .tags(tags).description("1 while the newest firing of the job on this node was refused as paused")
                .register(r);
    }

    /** Registers the job's counters at 0, once. */
    private void zeroCounters(MeterRegistry r, String namespace, String job) {
        if (counted.add(List.of(namespace, job))) {
            for (RunOutcome outcome : RunOutcome.values()) {
                runs(r, Tags.of(MetricNames.TAG_JOB, job, MetricNames.TAG_OUTCOME, outcome.name(),
                        MetricNames.TAG_NAMESPACE, namespace, MetricNames.TAG_ATTEMPT, "1"));
            }
            BoundRegistry.leaseLostCounter(r, job, namespace);
        }
    }

    private static Counter runs(MeterRegistry r, Tags tags) {
        return Counter.builder(MetricNames.JOB_RUNS).tags(tags).description("Guarded firings by outcome").register(r);
    }

    private static double seconds(Instant instant) {
        return instant == null ? Double.NaN : instant.toEpochMilli() / 1e3;
    }

    private static double seconds(Duration duration) {
        return duration == null ? Double.NaN : duration.toNanos() / 1e9;
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
        pausedState(event);
        MeterRegistry r = registry.get();
        if (r == null) {
            return;
        }
        Tags tags = Tags.of(MetricNames.TAG_JOB, event.job(), MetricNames.TAG_OUTCOME, event.outcome().name(),
                MetricNames.TAG_NAMESPACE, event.namespace());
        zeroCounters(r, event.namespace(), event.job());
        runs(r, tags.and(MetricNames.TAG_ATTEMPT, Integer.toString(event.attempt()))).increment();
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
        double nominalFireTimeSeconds = event.nominalFireTime().toEpochMilli() / 1e3;
        AtomicReference<Double> last = lastRuns.computeIfAbsent(List.of(event.namespace(), event.job()), key -> {
            AtomicReference<Double> value = new AtomicReference<>(nominalFireTimeSeconds);
            Gauge.builder(MetricNames.JOB_LAST_RUN, value, AtomicReference::get)
                    .tags(MetricNames.TAG_JOB, event.job(), MetricNames.TAG_NAMESPACE, event.namespace())
                    .baseUnit("seconds").description("Nominal fire time of the newest run that ended on this node")
                    .register(r);
            return value;
        });
        last.accumulateAndGet(nominalFireTimeSeconds, Math::max);
    }

    /**
     * job-guard's Redis store reads the pause flag first in the call that decides a firing (a regular one, a catch-up
     * or a retry): PAUSED says the job is paused, any other decision of that call says it is not. A store error,
     * MISSED and ABANDONED come without that call and leave the flag as it was. ASSIGNED_ELSEWHERE comes without a
     * store call too, yet sets 0: the node that asks for the job's fire times shows its pause, and a 1 kept here
     * after this node stopped asking would hide the job's resumption from the maximum over the nodes.
     */
    private void pausedState(JobEvent event) {
        AtomicInteger flag = paused.get(List.of(event.namespace(), event.job()));
        RunOutcome outcome = event.outcome();
        if (flag == null || outcome == RunOutcome.STORE_ERROR || outcome == RunOutcome.MISSED
                || outcome == RunOutcome.ABANDONED) {
            return;
        }
        flag.set(outcome == RunOutcome.PAUSED ? 1 : 0);
    }

    @Override
    public void onLeaseLost(RunContext context) {
        registry.leaseLost(context.job(), guard.config().namespace());
    }

    private record Schedule(String job, Supplier<Instant> nextNominalFireTime, Supplier<Duration> period,
                            AtomicInteger paused) {
    }
}
