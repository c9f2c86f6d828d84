package io.jobguard.spring.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the {@code jobguard.run} observation. Low-cardinality keys (also metric tags):
 * {@code job}, {@code type}, {@code outcome}. High-cardinality keys (span attributes only):
 * {@code fire.time}, {@code node}, {@code fencing.token}. Declare a bean of this type to replace it.
 */
public class RunObservationConvention implements ObservationConvention<RunObservationContext> {

    /** The observation's name. */
    public static final String NAME = "jobguard.run";

    /** Creates the default convention. */
    public RunObservationConvention() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(RunObservationContext context) {
        return "jobguard run " + context.job();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(RunObservationContext context) {
        return KeyValues.of("job", context.job(), "type", context.type(), "outcome",
                context.outcome() == null ? "UNKNOWN" : context.outcome().name());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(RunObservationContext context) {
        return KeyValues.of("fire.time", context.nominalFireTime().toString(), "node", context.node(), "fencing.token",
                Long.toString(context.fencingToken()));
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof RunObservationContext;
    }
}
