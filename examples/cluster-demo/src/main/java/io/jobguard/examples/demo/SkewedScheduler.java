package io.jobguard.examples.demo;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Clock;
import java.time.Duration;

/**
 * The scheduler of a {@link DemoApplication} node, on a clock off by {@code demo.clock-offset} (demo
 * only), as if the server's clock were wrong by that much.
 */
@Configuration(proxyBeanMethods = false)
class SkewedScheduler {

    /**
     * The scheduler every {@code @Scheduled} method runs on, with a deliberately skewed clock.
     *
     * @param offset how far this node's clock is off
     * @return the scheduler
     */
    @Bean
    ThreadPoolTaskScheduler taskScheduler(@Value("${demo.clock-offset:0s}") Duration offset) {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(4);
        scheduler.setThreadNamePrefix("demo-scheduler-");
        scheduler.setClock(Clock.offset(Clock.systemDefaultZone(), offset));
        return scheduler;
    }
}
