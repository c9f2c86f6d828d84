package io.jobguard.test.spring;

import io.jobguard.ClusterSingleton;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.store.LeaseStore;
import io.jobguard.store.RunHistory.FireEntry;
import io.jobguard.test.JobGuardTester;
import io.jobguard.test.SimulatedLeaseStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Spring Boot context without Redis whose guarded {@code @Scheduled} method is fired by the test through the real
 * scheduler decorator and {@code @ClusterSingleton} advice, for fire times the test chooses.
 */
@SpringBootTest(classes = GuardedJobsSpringBootTest.App.class, properties = {"spring.application.name=billing",
        "jobguard.jobs.reports.lease=300ms"})
@AutoConfigureJobGuardTest
class GuardedJobsSpringBootTest {

    private static final Instant T = Instant.parse("2030-01-01T02:00:00Z");

    @Autowired
    GuardedJobs jobs;
    @Autowired
    LeaseStore store;
    @Autowired
    Reports reports;

    @Test
    void theSimulatedStoreIsTheContextsLeaseStoreInTheApplicationsNamespace() {
        assertThat(store).isInstanceOf(SimulatedLeaseStore.class).isSameAs(jobs.tester().store());
        assertThat(jobs.tester().store().namespace()).isEqualTo("billing");
    }

    @Test
    void aFiredFireTimeRunsTheMethodWithThatFireTime() {
        assertThat(jobs.fire("reports", T)).isEqualTo(RunOutcome.RAN);

        assertThat(reports.ranFor()).contains(T);
        assertThat(jobs.tester().history("reports")).extracting(FireEntry::nominalFireTime, FireEntry::outcome)
                .contains(org.assertj.core.groups.Tuple.tuple(T, "RAN"));
    }

    @Test
    void aFireTimeAnotherNodeRanIsSkipped() {
        Instant t = T.plus(Duration.ofMinutes(5));
        jobs.tester().anotherNode("node-2").ran("reports", t);

        assertThat(jobs.fire("reports", t)).isEqualTo(RunOutcome.ALREADY_RAN);
        assertThat(reports.ranFor()).doesNotContain(t);
    }

    @Test
    void aFiringWhileTheStoreIsDownIsSkipped() {
        Instant t = T.plus(Duration.ofMinutes(10));
        jobs.tester().store().down();
        try {
            assertThat(jobs.fire("reports", t)).isEqualTo(RunOutcome.STORE_ERROR);
        } finally {
            jobs.tester().store().up();
        }
        assertThat(reports.ranFor()).doesNotContain(t);
    }

    @Test
    void aLeaseLostMidRunIsSeenByTheMethod() {
        Instant t = T.plus(Duration.ofMinutes(15));
        reports.loseLeaseWith(jobs.tester());
        try {
            assertThat(jobs.fire("reports", t)).isEqualTo(RunOutcome.FAILED);
        } finally {
            reports.loseLeaseWith(null);
        }
        assertThat(reports.sawLeaseLost()).contains(t);
    }

    @Test
    void aTimeOffTheScheduleOrAnUnknownJobIsRefused() {
        assertThatThrownBy(() -> jobs.fire("reports", T.plusSeconds(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a fire time of job 'reports'");
        assertThatThrownBy(() -> jobs.fire("nope", T)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[reports]");
    }

    /** A guarded job as an application writes it; read through methods, as the bean is job-guard's proxy. */
    static class Reports {
        private final List<Instant> ranFor = new CopyOnWriteArrayList<>();
        private final List<Instant> sawLeaseLost = new CopyOnWriteArrayList<>();
        private volatile JobGuardTester loseLeaseWith;

        public List<Instant> ranFor() {
            return ranFor;
        }

        public List<Instant> sawLeaseLost() {
            return sawLeaseLost;
        }

        /** While set, each run loses its lease halfway through, through {@code tester}. */
        public void loseLeaseWith(JobGuardTester tester) {
            loseLeaseWith = tester;
        }

        @Scheduled(cron = "0 */5 * * * *", zone = "UTC")
        @ClusterSingleton(name = "reports", lease = "10m")
        public void run() {
            RunContext run = RunContext.current().orElseThrow();
            JobGuardTester tester = loseLeaseWith;
            if (tester != null) {
                tester.loseLease("reports");
                if (run.isLeaseLost()) {
                    sawLeaseLost.add(run.nominalFireTime());
                }
                run.checkLease();
            }
            ranFor.add(run.nominalFireTime());
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class App {
        @Bean
        Reports reports() {
            return new Reports();
        }
    }
}
