package io.jobguard.benchmarks;

import io.jobguard.FireTimeSchedule;

import java.time.Instant;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The grid of fire times of the capacity benchmark's jobs: the steps the walk has handed out ({@link CapacityWalk}),
 * and after the last one, every millisecond (the next step is not known before it starts). Every node of a fleet
 * shares one, as every node of a real fleet computes the same grid: a job's recovery then finds the step before each
 * fire time handled, as a real schedule's.
 */
final class StepSchedule implements FireTimeSchedule {

    private final ConcurrentSkipListSet<Long> steps = new ConcurrentSkipListSet<>();

    /** Records a step's fire time before any node asks for it. */
    void step(long nominalFireTimeMillis) {
        steps.add(nominalFireTimeMillis);
        while (steps.size() > 100_000) {
            steps.pollFirst();
        }
    }

    @Override
    public Instant next(Instant after) {
        Long next = steps.higher(after.toEpochMilli());
        return Instant.ofEpochMilli(next != null ? next : after.toEpochMilli() + 1);
    }
}
