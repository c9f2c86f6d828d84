package io.jobguard.examples.demo;

/**
 * The Redis keys the demo nodes record in ({@link DemoJobs}, {@link OrderService}) and
 * {@link DemoRunner} reads ({@link RedisLists}).
 */
final class DemoKeys {

    /** List of (nominal fire time, node) entries of the every-second job. */
    static final String EVERY_SECOND = "demo:runs:every-second";
    /** List of (nominal fire time, node) entries of the overrunning job. */
    static final String OVERRUNNING = "demo:runs:overrunning";
    /** Counter of orders whose SKUs were all locked. */
    static final String ACQUIRED = "demo:batch:acquired";
    /** Counter of orders skipped because another order held one of their SKUs. */
    static final String CONFLICTS = "demo:batch:conflicts";

    private DemoKeys() {
    }
}
