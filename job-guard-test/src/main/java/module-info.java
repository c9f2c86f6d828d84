/**
 * job-guard's test kit, for applications' tests: a simulated lease store with a settable clock, a tester that fires
 * guarded jobs through the real engine, JUnit 5 support, and (when the application has them) Spring Boot test and
 * Quartz support. Exports exactly the API listed in {@code docs/api.md}.
 */
// "requires-(transitive-)automatic": JUnit, Spring and Quartz ship as automatic modules or are named by them
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.jobguard.test {
    requires transitive io.jobguard.core;
    requires transitive org.junit.jupiter.api;

    requires static io.jobguard.spring;
    requires static spring.boot.autoconfigure;

    exports io.jobguard.test;
    exports io.jobguard.test.spring;
}
