/**
 * job-guard for Quartz: {@code ClusterSingletonListener} guards each trigger fire time of a Quartz job
 * through the same engine call as Spring's scheduled jobs, with Spring Boot auto-configuration. Exports
 * exactly the packages listed in {@code docs/api.md}.
 */
// "requires-(transitive-)automatic": Quartz and Spring ship as automatic modules
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.jobguard.quartz {
    requires transitive io.jobguard.core;
    requires transitive org.quartz;
    requires org.slf4j;
    requires static io.jobguard.spring;
    requires static micrometer.core;
    requires static spring.boot.autoconfigure;
    requires static spring.beans;
    requires static spring.context;

    exports io.jobguard.quartz;
    exports io.jobguard.quartz.boot;
}
