package io.jobguard.examples.demo;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Clock;
import java.time.Duration;

/**
 * One node of the demo cluster. {@code demo.clock-offset} (demo only) shifts this node's scheduler
 * clock, as if the server's clock were wrong by that much; job-guard still runs each nominal fire
 * time once in the cluster.
 */
@SpringBootApplication
@EnableScheduling
public class DemoApplication {

    /**
     * Starts a node.
     *
     * @param args Spring Boot arguments, e.g. {@code --demo.node=node-A --demo.clock-offset=-2s}
     */
    public static void main(String[] args) {
        SpringApplication.run(DemoApplication.class, args);
    }

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
