/**
 * job-guard's engine: guards scheduled jobs so that each nominal fire time runs on one node of a
 * cluster, and holds batch locks on business keys. Exports exactly the API and the store SPI listed in
 * {@code docs/api.md}; the engine ({@code io.jobguard.internal.engine}) and the shared helpers are not
 * exported, except the helpers to job-guard's own Spring and Quartz modules.
 */
// "module": the qualified export names job-guard's other modules, not present when this one compiles;
// "requires-(transitive-)automatic": Spring, Lettuce and Micrometer ship as automatic modules
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module io.jobguard.core {
    requires transitive spring.data.redis;
    requires transitive spring.tx;
    requires transitive java.sql;
    requires spring.core;
    requires org.slf4j;
    requires java.management;
    requires static micrometer.core;
    requires static net.javacrumbs.shedlock.core;
    requires static lettuce.core;

    exports io.jobguard;
    exports io.jobguard.batch;
    exports io.jobguard.fencing;
    exports io.jobguard.memory;
    exports io.jobguard.micrometer;
    exports io.jobguard.monitor;
    exports io.jobguard.redis;
    exports io.jobguard.redis.batch;
    exports io.jobguard.shedlock;
    exports io.jobguard.store;

    exports io.jobguard.internal to io.jobguard.spring, io.jobguard.quartz;
    exports io.jobguard.internal.options to io.jobguard.spring, io.jobguard.quartz;
}
