package io.jobguard.examples.fault;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A {@link FaultNodeApplication} node's scheduler, on its {@link SteppableClock}, and its ledger,
 * from the {@code fault.*} properties.
 */
@Configuration(proxyBeanMethods = false)
class FaultNodeConfiguration {

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
