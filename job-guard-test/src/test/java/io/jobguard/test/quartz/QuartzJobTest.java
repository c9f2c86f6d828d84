package io.jobguard.test.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.quartz.ClusterSingletonListener;
import io.jobguard.test.JobGuardTest;
import io.jobguard.test.JobGuardTester;
import org.junit.jupiter.api.Test;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.impl.StdSchedulerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded Quartz job under the kit: its options as job-guard-quartz's listener resolves them
 * ({@code optionsOf(JobDetail)}), fired through the engine call the listener makes.
 */
@JobGuardTest
class QuartzJobTest {

    private static final Instant T = JobGuardTester.START.plus(Duration.ofHours(2));
    static final List<Instant> RAN_FOR = new CopyOnWriteArrayList<>();

    @ClusterSingleton(lease = "10m")
    public static final class NightlyReport implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            RAN_FOR.add(RunContext.current().orElseThrow().nominalFireTime());
        }
    }

    @Test
    void aQuartzJobRunsForItsFireTimeAndIsSkippedWhenAnotherNodeRanIt(JobGuardTester tester) throws Exception {
        Properties props = new Properties();
        props.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, "kit-" + System.identityHashCode(tester));
        props.setProperty("org.quartz.threadPool.threadCount", "1");
        Scheduler scheduler = new StdSchedulerFactory(props).getScheduler();
        try {
            ClusterSingletonListener listener = ClusterSingletonListener.install(scheduler, tester.guard());
            JobDetail detail = JobBuilder.newJob(NightlyReport.class).withIdentity("nightly", "reports").build();
            JobOptions options = listener.optionsOf(detail).orElseThrow();
            assertThat(options.name()).isEqualTo("reports.nightly");

            assertThat(tester.fire(options, T, () -> new NightlyReport().execute(null))).isEqualTo(RunOutcome.RAN);
            assertThat(RAN_FOR).containsExactly(T);

            Instant next = T.plus(Duration.ofDays(1));
            tester.anotherNode("node-2").ran("reports.nightly", next);
            assertThat(tester.fire(options, next, () -> new NightlyReport().execute(null)))
                    .isEqualTo(RunOutcome.ALREADY_RAN);
            assertThat(RAN_FOR).containsExactly(T);
        } finally {
            scheduler.shutdown();
        }
    }
}
