package io.jobguard.spring.it;

import io.jobguard.RunContext;

import java.time.Instant;

/**
 * A run a test job's body started, as job-guard's {@link RunContext} describes it: fire time, node, and whether
 * job-guard called it a catch-up.
 */
record StartedRun(Instant fireTime, String node, boolean catchUp) {

    /** The run of the calling job body on {@code node}; throws outside a guarded run. */
    static StartedRun current(String node) {
        RunContext context = RunContext.current().orElseThrow();
        return new StartedRun(context.nominalFireTime(), node, context.isCatchUp());
    }
}
