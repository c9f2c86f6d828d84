package io.jobguard.spring.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the {@code jobguard.batch} observation. Low-cardinality keys: {@code namespace},
 * {@code outcome} (a {@code BatchResult} name, or {@code ERROR}); high-cardinality key:
 * {@code key.count}.
 */
public class BatchObservationConvention implements ObservationConvention<BatchObservationContext> {

    /** The observation's name. */
    public static final String NAME = "jobguard.batch";

    /** Creates the default convention. */
    public BatchObservationConvention() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(BatchObservationContext context) {
        return "jobguard batch " + context.namespace();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(BatchObservationContext context) {
        return KeyValues.of("namespace", context.namespace(), "outcome",
                context.result() == null ? "UNKNOWN" : context.result());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(BatchObservationContext context) {
        return KeyValues.of("key.count", Integer.toString(context.keyCount()));
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof BatchObservationContext;
    }
}
