package io.jobguard.spring.observation;

import io.jobguard.RunContext;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Starts and stops the {@code jobguard.run} observation of guarded firings. The registry and the
 * convention are looked up lazily (the first firing comes after the context started); with no
 * {@link ObservationRegistry} bean nothing is observed and nothing is allocated per firing.
 */
public final class RunObservations {

    private final Supplier<ObservationRegistry> registry;
    private final Supplier<RunObservationConvention> convention;
    private volatile ObservationRegistry resolvedRegistry;
    private volatile RunObservationConvention resolvedConvention;

    /**
     * Creates the helper.
     *
     * @param registry   supplies the registry (or {@link ObservationRegistry#NOOP})
     * @param convention supplies the convention
     */
    public RunObservations(Supplier<ObservationRegistry> registry, Supplier<RunObservationConvention> convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = Objects.requireNonNull(convention, "convention");
    }

    /**
     * Starts the observation of one firing, as a child of the current observation, and opens its scope.
     *
     * @param guard           the engine (for the node id)
     * @param job             the job
     * @param nominalFireTime the nominal fire time
     * @return the running observation; finish it with {@link Running#decided} and {@link Running#stop}
     */
    public Running start(JobGuard guard, JobOptions job, Instant nominalFireTime) {
        ObservationRegistry r = resolvedRegistry;
        if (r == null) {
            r = registry.get();
            resolvedRegistry = r == null ? ObservationRegistry.NOOP : r;
            r = resolvedRegistry;
        }
        if (r.isNoop()) {
            return Running.NONE;
        }
        RunObservationContext context = new RunObservationContext(job.name(), job.type().name(), nominalFireTime,
                guard.config().nodeId());
        RunObservationConvention c = resolvedConvention;
        if (c == null) {
            c = convention.get();
            resolvedConvention = c;
        }
        Observation observation = Observation.createNotStarted(c, () -> context, r).start();
        return new Running(observation, context, observation.openScope());
    }

    /** One firing's observation in progress. */
    public static final class Running {
        static final Running NONE = new Running(null, null, null);

        private final Observation observation;
        private final RunObservationContext context;
        private final Observation.Scope scope;
        private volatile boolean detached;

        private Running(Observation observation, RunObservationContext context, Observation.Scope scope) {
            this.observation = observation;
            this.context = context;
            this.scope = scope;
        }

        /**
         * Records that the fire time was admitted (the run's fencing token).
         *
         * @param run the admitted run
         */
        public void decided(RunContext run) {
            if (context != null) {
                context.fencingToken(run.fencingToken());
            }
        }

        /**
         * Closes the scope on the calling thread and lets {@link #stop} run later on any thread
         * (for work that completes after the method returns).
         */
        public void detach() {
            if (scope != null && !detached) {
                detached = true;
                scope.close();
            }
        }

        /**
         * Records the outcome and a failure, closes the scope and stops the observation.
         *
         * @param outcome the outcome
         * @param failure what the job threw, or null
         */
        public void stop(RunOutcome outcome, Throwable failure) {
            if (observation == null) {
                return;
            }
            context.outcome(outcome);
            if (failure != null) {
                observation.error(failure);
            }
            if (!detached) {
                scope.close();
            }
            observation.stop();
        }
    }
}
