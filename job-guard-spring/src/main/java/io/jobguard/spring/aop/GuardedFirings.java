package io.jobguard.spring.aop;

import io.jobguard.Admission;
import io.jobguard.JobGuard;
import io.jobguard.JobPermit;
import io.jobguard.MissedFireTimes;
import io.jobguard.RunContext;
import io.jobguard.spring.internal.GuardedJob;
import io.jobguard.spring.observation.RunObservations;
import org.springframework.util.function.SingletonSupplier;

import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Runs the scheduled firings of {@code @ClusterSingleton} methods under the guard: the scheduler
 * hands each firing over with its nominal fire time ({@link #fire}); the time is admitted through
 * {@link JobGuard#admit} (or, for a job that recovers missed fire times, {@link MissedFireTimes#admit})
 * and, if granted, Spring's scheduled runnable runs while this thread holds the permit. The
 * {@code @ClusterSingleton} advice, reached through that runnable, {@linkplain #takeAdmitted takes}
 * the admitted firing (found by the permit's {@link RunContext}, bound to this thread) instead of
 * admitting again, and finishes the permit when the method's work ends. A firing whose method was
 * never reached is finished here. Thread-safe; one instance per application context.
 */
public final class GuardedFirings {

    private final SingletonSupplier<JobGuard> guard;
    private final RunObservations observations;
    /** By the permit's run context itself (identity: two runs never share one). */
    private final Map<RunContext, Admitted> admitted = Collections.synchronizedMap(new IdentityHashMap<>());

    /**
     * @param engine the engine, looked up at the first firing (not while beans are being created)
     */
    GuardedFirings(Supplier<JobGuard> engine, RunObservations observations) {
        this.guard = SingletonSupplier.of(Objects.requireNonNull(engine, "engine"));
        this.observations = Objects.requireNonNull(observations, "observations");
    }

    /**
     * Runs one scheduled firing of a guarded method if its fire time is admitted here.
     *
     * @param job      the guarded method
     * @param fireTime the nominal fire time the trigger designated
     * @param firing   Spring's scheduled runnable of the method (also run for each recovered fire time)
     */
    public void fire(GuardedJob job, Instant fireTime, Runnable firing) {
        Admission admission;
        try {
            admission = job.recovery() == null ? guard().admit(job.options(), fireTime)
                    : missed().admit(job.options(), job.recovery(), fireTime, firing);
        } catch (RuntimeException | Error e) {
            // the method does not run, so there is no scheduled-method observation to nest under
            observations.start(guard(), job.options(), fireTime).stop(null, e);
            throw e;
        }
        if (!admission.granted()) {
            RunObservations.Running observation = observations.start(guard(), job.options(), fireTime);
            job.recordOutcome(fireTime, admission.refusal());
            observation.stop(admission.refusal(), null);
            return;
        }
        JobPermit permit = admission.permit();
        Admitted firingRun = new Admitted(job, fireTime, admission, new AtomicBoolean());
        admitted.put(permit.context(), firingRun);
        Throwable failure = null;
        try {
            firing.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            admitted.remove(permit.context());
            if (firingRun.take()) {
                job.recordOutcome(fireTime, permit.finish(failure));
            }
        }
    }

    /**
     * Takes the scheduled firing of {@code job} that the current thread was admitted for, once.
     *
     * @return the firing, or null when this thread runs no untaken scheduled firing of the job
     */
    Admitted takeAdmitted(GuardedJob job) {
        Admitted firingRun = RunContext.current().map(admitted::get).orElse(null);
        return firingRun != null && firingRun.job() == job && firingRun.take() ? firingRun : null;
    }

    /** Whether the current thread already runs under a permit of {@code job} (a recovery body, a nested call). */
    static boolean insideRunOf(GuardedJob job) {
        return RunContext.current().map(c -> c.job().equals(job.options().name())).orElse(false);
    }

    JobGuard guard() {
        return guard.obtain();
    }

    MissedFireTimes missed() {
        return guard().missedFireTimes();
    }

    /**
     * A scheduled firing admitted on this thread; whoever takes it finishes its permit.
     *
     * @param job       the guarded method
     * @param fireTime  the nominal fire time
     * @param admission the granted admission
     * @param taken     whether the advice (or the firing itself) took it
     */
    record Admitted(GuardedJob job, Instant fireTime, Admission admission, AtomicBoolean taken) {
        boolean take() {
            return taken.compareAndSet(false, true);
        }
    }
}
