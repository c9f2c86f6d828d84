package io.jobguard.spring.it;

import io.jobguard.spring.JobGuardConfigCustomizer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Clock;
import java.time.Duration;

/**
 * A test node's clock, offset from the machine's by {@code test.clock-offset-ms}: the scheduler fires and the engine
 * judges by it, as on a server whose clock is skewed.
 */
@Configuration(proxyBeanMethods = false)
class OffsetClockConfiguration {

    @Bean
    Clock nodeClock(@Value("${test.clock-offset-ms:0}") long offsetMillis) {
        return Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMillis));
    }

    @Bean
    JobGuardConfigCustomizer nodeClockForEngine(Clock nodeClock) {
        return builder -> builder.clock(nodeClock);
    }

    @Bean
    ThreadPoolTaskScheduler taskScheduler(Clock nodeClock) {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(2);
        scheduler.setClock(nodeClock);
        return scheduler;
    }
}
