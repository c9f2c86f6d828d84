package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.config.CronTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import java.util.List;

/**
 * Applications whose guarded schedule does not go through job-guard's scheduler, one per
 * {@code test.case}: {@code own-scheduler} takes the registered cron tasks and runs them on a
 * scheduler of its own; {@code wrapper} replaces each task by a wrapper that prints something else
 * (what tracing wrappers do). {@code plain} is the same job with no configurer.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
class BypassApps {

    @Bean
    Tick tick() {
        return new Tick();
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "own-scheduler")
    ThreadPoolTaskScheduler ownTaskScheduler() {
        ThreadPoolTaskScheduler own = new ThreadPoolTaskScheduler();
        own.setThreadNamePrefix("own-");
        return own;
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "own-scheduler")
    SchedulingConfigurer ownScheduler(ThreadPoolTaskScheduler ownTaskScheduler) {
        return registrar -> {
            ThreadPoolTaskScheduler own = ownTaskScheduler;
            List<CronTask> tasks = registrar.getCronTaskList();
            registrar.setCronTasksList(List.of());
            tasks.forEach(t -> own.schedule(t.getRunnable(), t.getTrigger()));
        };
    }

    @Bean
    @ConditionalOnProperty(name = "test.case", havingValue = "wrapper")
    SchedulingConfigurer wrapper() {
        return (ScheduledTaskRegistrar registrar) -> registrar.setCronTasksList(registrar.getCronTaskList().stream()
                .map(t -> new CronTask(new Traced(t.getRunnable()), t.getExpression()))
                .toList());
    }

    /** A tracing-style wrapper that prints its own name, not the wrapped method's. */
    record Traced(Runnable task) implements Runnable {
        @Override
        public void run() {
            task.run();
        }
    }

    static class Tick {
        @Scheduled(cron = "* * * * * *")
        @ClusterSingleton(lease = "5s")
        public void run() {
            // the interceptor's log lines are what the tests look at
        }
    }
}
