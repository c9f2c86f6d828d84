package io.jobguard.spring.it;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunOutcome;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.spring.EnableJobGuard;
import io.jobguard.spring.JobOptionsCustomizer;
import io.jobguard.spring.firing.GuardedJob;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A job's one options guard a direct call as they guard its scheduled firings: a customizer sees the
 * job's recovery of lost fire times and changes it, and a direct subscription of the reactive method (not
 * made by the scheduler) is admitted with that customized recovery, so the fire time its schedule passed
 * while the job did not run is caught up before the call's own run. Plain Spring (no Boot): no background
 * recovery pass runs, so only the call can have caught it up.
 */
@WithRedis
class DirectCallRecoveryIT {

    private static final String JOB = "daily-report";
    static final Map<String, RecoveryOptions> SEEN = new ConcurrentHashMap<>();
    static final AtomicInteger RUNS = new AtomicInteger();

    @Test
    void aDirectSubscriptionIsAdmittedWithTheJobsCustomizedRecovery(RedisServerProcess redis) {
        SEEN.clear();
        RUNS.set(0);
        LettuceConnectionFactory factory = redis.connectionFactory();
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean(LettuceConnectionFactory.class, () -> factory);
            context.register(App.class);
            context.refresh();

            // the customizer was given the annotation's recovery; the job's one options carry what it returned
            RecoveryOptions seen = SEEN.get(JOB);
            assertThat(seen).as("the recovery the customizer was given").isNotNull();
            assertThat(seen.misfirePolicy()).isEqualTo(MisfirePolicy.SKIP);
            assertThat(seen.catchUpWindow()).isEqualTo(Duration.ofDays(3));
            GuardedJob job = context.getBean(GuardedJobRegistry.class).forName(JOB).orElseThrow();
            assertThat(job.options().recovery().misfirePolicy()).isEqualTo(MisfirePolicy.RUN_LATEST);

            // the job last ran two fire times ago: the previous fire time nobody started
            JobGuard guard = context.getBean(JobGuard.class);
            Instant now = job.schedule().latestAtOrBefore(job.clock().instant());
            Instant previous = job.schedule().latestAtOrBefore(now.minusMillis(1));
            Instant lastRan = job.schedule().latestAtOrBefore(previous.minusMillis(1));
            JobOptions earlier = JobOptions.builder(JOB, Duration.ofSeconds(10)).recovery(RecoveryOptions.builder()
                    .catchUpWindow(Duration.ofDays(3)).schedule(job.schedule()::nextAfter).build()).build();
            assertThat(guard.run(earlier, lastRan, () -> { })).isEqualTo(RunOutcome.RAN);

            List<JobEvent> events = new CopyOnWriteArrayList<>();
            guard.addListener(events::add);
            assertThat(context.getBean(DailyReport.class).report().block(Duration.ofSeconds(30))).isEqualTo(JOB);

            // RUN_LATEST, the customizer's: the previous fire time ran late, then the call's own
            assertThat(events).extracting(JobEvent::nominalFireTime, JobEvent::outcome)
                    .containsExactly(tuple(previous, RunOutcome.CAUGHT_UP), tuple(now, RunOutcome.RAN));
            assertThat(RUNS).hasValue(2);
        } finally {
            factory.destroy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableJobGuard
    static class App {

        @Bean(destroyMethod = "close")
        JobGuard jobGuard(LettuceConnectionFactory factory) {
            return JobGuard.create(RedisLeaseStore.create(factory, "direct-call"),
                    JobGuardConfig.builder().node(NodeConfig.builder().nodeId("direct-node").build())
                            .namespace("direct-call").build());
        }

        /** Records the recovery the job had before it, and runs its missed fire times' latest late. */
        @Bean
        JobOptionsCustomizer runLatest() {
            return (options, method) -> {
                if (options.recovery() == null) {
                    return options;
                }
                SEEN.put(options.name(), options.recovery());
                return options.toBuilder().recovery(options.recovery().toBuilder().misfirePolicy(MisfirePolicy.RUN_LATEST)
                        .build()).build();
            };
        }

        @Bean
        DailyReport dailyReport() {
            return new DailyReport();
        }
    }

    static class DailyReport {
        @Scheduled(cron = "0 0 3 * * *")
        @ClusterSingleton(name = JOB, lease = "10s", misfirePolicy = "SKIP", catchUpWindow = "3d")
        public Mono<String> report() {
            return Mono.fromCallable(() -> {
                RUNS.incrementAndGet();
                return JOB;
            });
        }
    }
}
