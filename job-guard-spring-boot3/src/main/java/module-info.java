/**
 * job-guard for Spring Boot 3.5: the health indicator and the Lettuce reconnect backoff through Boot 3.5's types.
 * Exports nothing (the API is {@code io.jobguard.spring}'s, the same on both Boot lines); its auto-configurations
 * are opened to Spring.
 */
// "requires-automatic": Spring Boot and Lettuce ship as automatic modules; "module": the name ends in the Boot line
@SuppressWarnings({"requires-automatic", "module"})
module io.jobguard.spring.boot3 {
    requires io.jobguard.spring;
    requires static spring.boot;
    requires static spring.boot.autoconfigure;
    requires static spring.boot.actuator;
    requires static spring.boot.actuator.autoconfigure;
    requires static lettuce.core;
    requires static com.fasterxml.jackson.annotation;

    opens io.jobguard.spring.boot3 to spring.core, spring.beans, spring.context;
}
