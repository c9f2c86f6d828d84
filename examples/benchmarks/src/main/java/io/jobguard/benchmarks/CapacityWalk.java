package io.jobguard.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The step every worker of one level of {@link CapacityBenchmark} is at; {@link #run()} is the barrier action
 * between two steps (it runs in one thread while every other worker waits): it tallies the step that ended,
 * starts and ends the measured window, and hands out the next step.
 */
final class CapacityWalk implements Runnable {
    private final CapacityBenchmark.Target target;
    private final int jobs;
    private final AtomicLong lastNominalFireTimeMillis;
    private final StepSchedule schedule;
    private final long warmUpEnd;
    private final long measured;
    private final long stepNanos;
    private long nextStepNanos;
    final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile boolean stop;
    private volatile long nominalFireTimeMillis;
    private volatile AtomicIntegerArray grants;
    private boolean measuring;
    private boolean countStep;
    long startNanos;
    long endNanos;
    double[] cpuBefore;
    double[] cpuAfter;
    long callsBefore;
    long callsAfter;
    long clientCpuBefore;
    long clientCpuAfter;
    long measuredFireTimes;
    long measuredGrants;
    long missed;
    long duplicates;

    CapacityWalk(CapacityBenchmark.Target target, CapacityBenchmark.Settings settings, AtomicLong lastNominalFireTimeMillis,
                 StepSchedule schedule) {
        this.target = target;
        this.schedule = schedule;
        this.jobs = settings.jobs();
        this.lastNominalFireTimeMillis = lastNominalFireTimeMillis;
        this.warmUpEnd = System.nanoTime() + settings.warmUp().toNanos();
        this.measured = settings.measured().toNanos();
        this.stepNanos = settings.stepNanos();
        this.nextStepNanos = System.nanoTime();
    }

    @Override
    public void run() {
        if (grants != null) {
            for (int j = 0; j < jobs; j++) {
                int g = grants.get(j);
                if (g == 0) {
                    missed++;
                } else if (g > 1) {
                    duplicates += g - 1;
                }
                if (countStep) {
                    measuredGrants += g;
                }
            }
            if (countStep) {
                measuredFireTimes += jobs;
            }
        }
        long now = System.nanoTime();
        if (measuring && now - startNanos >= measured) {
            endNanos = System.nanoTime();
            cpuAfter = RedisInfo.cpuSeconds(target.admin());
            callsAfter = RedisInfo.calls(target.admin());
            clientCpuAfter = processCpuNanos();
            stop = true;
            return;
        }
        if (!measuring && now - warmUpEnd >= 0) {
            measuring = true;
            cpuBefore = RedisInfo.cpuSeconds(target.admin());
            callsBefore = RedisInfo.calls(target.admin());
            clientCpuBefore = processCpuNanos();
            startNanos = System.nanoTime();
        }
        countStep = measuring;
        paceStep();
        nominalFireTimeMillis = nextNominalFireTimeMillis();
        schedule.step(nominalFireTimeMillis);
        grants = new AtomicIntegerArray(jobs);
    }

    /** With {@code --rate}: starts the next step no sooner than a step's length after the one before. */
    private void paceStep() {
        if (stepNanos == 0) {
            return;
        }
        long wait = nextStepNanos - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
        nextStepNanos = Math.max(nextStepNanos + stepNanos, System.nanoTime());
    }

    /**
     * The next step's fire time: this millisecond of the wall clock (Redis's too, on this machine), later than
     * the previous step's. A fire time ahead of Redis's clock is a clock lead, which job-guard's nodes publish
     * to the fleet and wait for (one fleet-leads interval) when it grows: a walk ahead of the clock would
     * measure those waits, never a real fleet's firing.
     */
    private long nextNominalFireTimeMillis() {
        long previous = lastNominalFireTimeMillis.get();
        long now = System.currentTimeMillis();
        while (now <= previous) {
            Thread.onSpinWait();
            now = System.currentTimeMillis();
        }
        lastNominalFireTimeMillis.set(now);
        return now;
    }

    /** One worker: jobs {@code firstJob}, {@code firstJob + stride}, ... of one node, step after step. */
    void work(CapacityNodes.Node node, int firstJob, int stride, CyclicBarrier ask, CyclicBarrier release) throws Exception {
        List<Runnable> held = new ArrayList<>();
        try {
            while (true) {
                ask.await();
                if (stop) {
                    return;
                }
                long s = nominalFireTimeMillis;
                AtomicIntegerArray granted = grants;
                for (int j = firstJob; j < jobs; j += stride) {
                    Runnable won = node.fire(j, s);
                    if (won != null) {
                        granted.incrementAndGet(j);
                        held.add(won);
                    }
                }
                // The winners of ShedLock and Redisson hold their lock until every node has asked
                release.await();
                held.forEach(Runnable::run);
                held.clear();
            }
        } catch (Exception e) {
            if (!(e instanceof BrokenBarrierException)) {
                failure.compareAndSet(null, e);
            }
            ask.reset();
            release.reset();
            throw e;
        }
    }

    /** The CPU time this JVM used so far (every thread: the nodes' workers, their clients' I/O threads, the JIT, GC). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
