package io.jobguard.examples.fault;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * One node of the fault suite, run by {@link FaultSuite} as its own JVM. Properties:
 * {@code fault.node} (its name), {@code fault.library} ({@code job-guard} or {@code shedlock}: which
 * library guards the same jobs), {@code fault.ledger} (its ledger file), {@code fault.clock-offset}
 * (its scheduler clock's fixed skew) and {@code fault.clock-file} (a file the runner writes a clock
 * step in milliseconds to). The jobs are in {@link GuardedJobs} and {@link ShedLockJobs}.
 */
@SpringBootApplication
@EnableScheduling
public class FaultNodeApplication {

    /**
     * Starts a node.
     *
     * @param args Spring Boot arguments, see the class comment
     */
    public static void main(String[] args) {
        SpringApplication.run(FaultNodeApplication.class, args);
    }

    @Bean
    SteppableClock schedulerClock(@Value("${fault.clock-offset:0s}") Duration offset,
                                  @Value("${fault.clock-file:}") String clockFile) {
        return new SteppableClock(Clock.systemDefaultZone(), offset, clockFile.isBlank() ? null : Path.of(clockFile));
    }

    @Bean
    ThreadPoolTaskScheduler taskScheduler(SteppableClock schedulerClock) {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(6);
        scheduler.setThreadNamePrefix("fault-scheduler-");
        scheduler.setClock(schedulerClock);
        return scheduler;
    }

    @Bean(destroyMethod = "close")
    NodeLedger nodeLedger(@Value("${fault.ledger}") String ledger, @Value("${fault.node}") String node) {
        // the ledger's times are the machine's real time, never the skewed scheduler clock
        return new NodeLedger(Path.of(ledger), node, Clock.systemUTC());
    }

    @EventListener(ApplicationReadyEvent.class)
    void ready(ApplicationReadyEvent event) {
        event.getApplicationContext().getBean(NodeLedger.class).ready();
    }
}
