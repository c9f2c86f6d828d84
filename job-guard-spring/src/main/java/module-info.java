/**
 * job-guard for Spring: {@code @EnableJobGuard}, the {@code @ClusterSingleton} and {@code @BatchLocked}
 * advice, Spring Boot auto-configuration, the actuator endpoint and health, observations and lease-checked
 * transactions. Exports exactly the packages of the API listed in {@code docs/api.md}; the firing path
 * ({@code io.jobguard.spring.firing}) is exported only to job-guard-test, whose GuardedJobs fires guarded methods.
 */
// "requires-(transitive-)automatic": Spring, Lettuce, Micrometer and Kotlin ship as automatic modules
// "module": the qualified export names job-guard-test, not present when this one compiles
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module io.jobguard.spring {
    requires transitive io.jobguard.core;
    requires transitive spring.context;
    requires transitive spring.beans;
    requires transitive spring.core;
    requires transitive spring.aop;
    requires spring.expression;
    requires org.slf4j;
    requires static spring.boot;
    requires static spring.boot.autoconfigure;
    requires static spring.boot.data.redis;
    requires static spring.boot.actuator;
    requires static spring.boot.actuator.autoconfigure;
    requires static spring.boot.health;
    requires static spring.boot.micrometer.metrics;
    requires static micrometer.observation;
    requires static micrometer.commons;
    requires static micrometer.core;
    requires static spring.jdbc;
    requires static spring.web;
    requires static spring.webmvc;
    requires static jakarta.servlet;
    requires static reactor.core;
    requires static org.reactivestreams;
    requires static kotlin.stdlib;
    requires static kotlinx.coroutines.core;
    requires static kotlinx.coroutines.reactor;
    requires static lettuce.core;
    requires static net.javacrumbs.shedlock.core;
    requires static com.fasterxml.jackson.annotation;
    requires static jsr305;

    exports io.jobguard.spring;
    exports io.jobguard.spring.actuator;
    exports io.jobguard.spring.batch;
    exports io.jobguard.spring.boot;
    exports io.jobguard.spring.fencing;
    exports io.jobguard.spring.observation;
    exports io.jobguard.spring.tx;

    exports io.jobguard.spring.firing to io.jobguard.test;
}
