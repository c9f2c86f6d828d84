package io.jobguard.test.spring;

import io.jobguard.JobEvent;
import io.jobguard.RunOutcome;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.test.JobGuardTester;
import org.springframework.scheduling.TriggerContext;
import org.springframework.scheduling.support.SimpleTriggerContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

/**
 * Fires the {@code @ClusterSingleton} {@code @Scheduled} methods of a Spring test context for the fire times a test
 * chooses, the way the scheduler fires them. The method's scheduled task, as job-guard's scheduler decorator made it,
 * runs on the calling thread with the fire time its trigger names, so the {@code @ClusterSingleton} advice takes that
 * fire time and owns the firing (one {@code JobGuard.fire} with the method's resolved options). A bean of contexts
 * with {@link AutoConfigureJobGuardTest}, in which nothing fires by itself.
 */
public final class GuardedJobs {

    private final GuardedJobRegistry registry;
    private final ManualTaskScheduler scheduler;
    private final JobGuardTester tester;

    GuardedJobs(GuardedJobRegistry registry, ManualTaskScheduler scheduler, JobGuardTester tester) {
        this.registry = registry;
        this.scheduler = scheduler;
        this.tester = tester;
    }

    /**
     * Fires the guarded method of {@code job} for {@code nominalFireTime}, on the calling thread, and returns how
     * the firing ended on this node. What the method throws is the firing's failure ({@link RunOutcome#FAILED}), not
     * rethrown.
     *
     * @param job             the job name ({@code @ClusterSingleton(name)}, or its default)
     * @param nominalFireTime a fire time of the method's cron or fixed-rate schedule
     * @return the outcome
     * @throws IllegalArgumentException if no guarded method has that name, its schedule has no fire-time grid
     *                                  (fixed delay, one time) or {@code nominalFireTime} is not on it
     * @throws IllegalStateException    if the method's task was never scheduled (no {@code @EnableScheduling})
     */
    public RunOutcome fire(String job, Instant nominalFireTime) {
        Objects.requireNonNull(nominalFireTime, "nominalFireTime");
        GuardedJob guarded = registry.forName(job).orElseThrow(() -> new IllegalArgumentException(
                "no @ClusterSingleton method is named '" + job + "'; the guarded jobs are "
                        + registry.all().stream().map(g -> g.options().name()).toList()));
        ManualTaskScheduler.Scheduled scheduled = scheduler.find(guarded.runnableKey()).orElseThrow(() ->
                new IllegalStateException("the method of job '" + job + "' (" + guarded.runnableKey() + ") was not "
                        + "scheduled: is @EnableScheduling on in the test context?"));
        if (scheduled.trigger() == null) {
            throw new IllegalArgumentException("job '" + job + "' runs on a fixed-delay or one-time schedule, whose "
                    + "fire time is the node's own now: GuardedJobs fires cron and fixed-rate jobs");
        }
        Instant onSchedule = guarded.schedule().latestAtOrBefore(nominalFireTime);
        if (!onSchedule.equals(nominalFireTime)) {
            throw new IllegalArgumentException(nominalFireTime + " is not a fire time of job '" + job + "' ("
                    + guarded.schedule().describe() + "); the latest before it is " + onSchedule);
        }
        // the trigger names the fire time after the previous one, as when the scheduler delays the task to it
        Instant justBefore = nominalFireTime.minus(Duration.ofMillis(1));
        SimpleTriggerContext previous = new SimpleTriggerContext(Clock.fixed(justBefore, ZoneOffset.UTC));
        previous.update(justBefore, justBefore, justBefore);
        Instant named = name(scheduled, previous);
        if (!nominalFireTime.equals(named)) {
            throw new IllegalStateException("the trigger of job '" + job + "' named " + named + " for "
                    + nominalFireTime);
        }
        int before = tester.events(job).size();
        try {
            scheduled.task().run();
        } catch (RuntimeException | Error e) {
            if (decided(job, nominalFireTime, before) == null) {
                throw e;
            }
        }
        RunOutcome outcome = decided(job, nominalFireTime, before);
        if (outcome == null) {
            throw new IllegalStateException("the firing of job '" + job + "' T=" + nominalFireTime + " reached no "
                    + "guard: is the method's bean proxied by job-guard?");
        }
        return outcome;
    }

    private static Instant name(ManualTaskScheduler.Scheduled scheduled, TriggerContext previous) {
        return scheduled.trigger().nextExecution(previous);
    }

    private RunOutcome decided(String job, Instant nominalFireTime, int before) {
        List<JobEvent> events = tester.events(job);
        return events.subList(before, events.size()).stream().filter(e -> e.nominalFireTime().equals(nominalFireTime))
                .map(JobEvent::outcome).reduce((first, second) -> second).orElse(null);
    }

    /**
     * The context's tester: its store (scenarios), clock, recorded outcomes and {@link JobGuardTester#loseLease}.
     *
     * @return the tester of the context's engine
     */
    public JobGuardTester tester() {
        return tester;
    }
}
