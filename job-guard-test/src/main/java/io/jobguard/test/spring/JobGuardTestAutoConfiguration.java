package io.jobguard.test.spring;

import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.spring.JobGuardConfigCustomizer;
import io.jobguard.spring.boot.JobGuardAutoConfiguration;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.store.LeaseStore;
import io.jobguard.test.JobGuardTester;
import io.jobguard.test.MutableClock;
import io.jobguard.test.SimulatedLeaseStore;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Puts job-guard's test kit in place of the Redis store, for contexts annotated {@link AutoConfigureJobGuardTest}. It
 * defines a {@link SimulatedLeaseStore} as the {@link LeaseStore} (so job-guard's auto-configuration makes no Redis store and
 * needs no Redis), a {@link MutableClock} as the engine's and the store's clock, a scheduler that fires nothing by
 * itself, and {@link GuardedJobs} to fire guarded methods for chosen fire times. Not registered for every context:
 * only the annotation imports it.
 */
@AutoConfiguration(before = JobGuardAutoConfiguration.class)
public class JobGuardTestAutoConfiguration {

    /** The bean name of the kit's scheduler. */
    private static final String SCHEDULER = "jobGuardTestScheduler";

    /** Creates the auto-configuration; Spring Boot instantiates it. */
    public JobGuardTestAutoConfiguration() {
    }

    /**
     * The clock of the engine and the store, standing at {@link JobGuardTester#START} until the test moves it.
     *
     * @return the clock
     */
    @Bean
    @ConditionalOnMissingBean
    public MutableClock jobGuardTestClock() {
        return MutableClock.at(JobGuardTester.START);
    }

    /**
     * Makes the kit's clock the engine's.
     *
     * @param clock the kit's clock
     * @return the customizer
     */
    @Bean
    public JobGuardConfigCustomizer jobGuardTestClockCustomizer(MutableClock clock) {
        return builder -> builder.clock(clock);
    }

    /**
     * The simulated store, for the engine's namespace.
     *
     * @param config the engine's configuration
     * @param clock  the kit's clock
     * @return the store
     */
    @Bean
    @ConditionalOnMissingBean(LeaseStore.class)
    public SimulatedLeaseStore jobGuardTestLeaseStore(JobGuardConfig config, MutableClock clock) {
        return SimulatedLeaseStore.create(config.namespace(), clock);
    }

    /**
     * The scheduler every {@code @Scheduled} task of the context is handed to; it runs none by itself.
     *
     * @return the configurer that installs it, just before job-guard's decorator wraps the registrar's scheduler
     */
    @Bean(SCHEDULER)
    @ConditionalOnMissingBean
    public ManualScheduling jobGuardTestScheduler() {
        return new ManualScheduling();
    }

    /**
     * The tester of the context's engine.
     *
     * @param guard the engine (on the simulated store)
     * @return the tester
     */
    @Bean
    @ConditionalOnMissingBean
    public JobGuardTester jobGuardTester(JobGuard guard) {
        return JobGuardTester.of(guard);
    }

    /**
     * Fires the context's guarded methods for chosen fire times.
     *
     * @param registry   the guarded methods
     * @param scheduling the kit's scheduler
     * @param tester     the tester
     * @return the bean
     */
    @Bean
    @ConditionalOnMissingBean
    public GuardedJobs jobGuardGuardedJobs(GuardedJobRegistry registry, @Qualifier(SCHEDULER) ManualScheduling scheduling,
                                           JobGuardTester tester) {
        return new GuardedJobs(registry, scheduling.scheduler, tester);
    }

    /**
     * Installs the kit's scheduler as the {@code @Scheduled} registrar's, after the application's own configurers
     * that run earlier and before job-guard's decorator (which runs last and wraps it).
     */
    public static final class ManualScheduling implements SchedulingConfigurer, Ordered {

        private final ManualTaskScheduler scheduler = new ManualTaskScheduler();

        ManualScheduling() {
        }

        @Override
        public void configureTasks(ScheduledTaskRegistrar registrar) {
            registrar.setTaskScheduler(scheduler);
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE - 1;
        }
    }
}
