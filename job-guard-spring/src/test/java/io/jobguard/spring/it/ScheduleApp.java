package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/** An application with one guarded job per kind of schedule, for the schedule gauges. */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class ScheduleApp {

    @Bean
    Jobs scheduleJobs() {
        return new Jobs();
    }

    /** Four schedules; none of the bodies does anything. */
    static class Jobs {

        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(name = "every-second")
        void everySecond() {
            // a run
        }

        @Scheduled(cron = "0 0 * * * *", zone = "UTC")
        @ClusterSingleton(name = "hourly")
        void hourly() {
            // a run
        }

        @Scheduled(fixedRate = 2000)
        @ClusterSingleton(name = "fixed-rate")
        void fixedRate() {
            // a run
        }

        @Scheduled(fixedDelay = 1500)
        @ClusterSingleton(name = "fixed-delay")
        void fixedDelay() {
            // a run
        }
    }
}
