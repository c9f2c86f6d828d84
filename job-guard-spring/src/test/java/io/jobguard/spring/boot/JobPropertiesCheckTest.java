package io.jobguard.spring.boot;

import io.jobguard.ClusterSingleton;
import io.jobguard.spring.GuardedJobsContributor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@code jobguard.jobs.<name>} entry that matches no guarded job is reported at startup, by name. */
@ExtendWith(OutputCaptureExtension.class)
class JobPropertiesCheckTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class))
            .withPropertyValues("jobguard.store=in-memory", "jobguard.node-id=check-node",
                    "jobguard.jobs.known.lease=10s", "jobguard.jobs.nightly-typo.lease=10s",
                    "jobguard.jobs.quartz-job.lease=10s")
            .withUserConfiguration(Jobs.class);

    @Test
    void warnsForEachEntryThatMatchesNoGuardedJob(CapturedOutput output) {
        runner.run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains("jobguard.jobs.nightly-typo matches no guarded job on node check-node and is "
                + "ignored; guarded jobs here: [known]");
        assertThat(output).contains("jobguard.jobs.quartz-job is ignored: 'quartz-job' is not a @ClusterSingleton "
                + "@Scheduled job");
        assertThat(output).doesNotContain("jobguard.jobs.known ");
    }

    @Test
    void saysNothingWhenEveryEntryMatches(CapturedOutput output) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(JobGuardAutoConfiguration.class))
                .withPropertyValues("jobguard.store=in-memory", "jobguard.jobs.known.lease=10s")
                .withUserConfiguration(Jobs.class)
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).doesNotContain("jobguard.jobs.");
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {
        @Bean
        Known known() {
            return new Known();
        }

        @Bean
        GuardedJobsContributor quartz() {
            return () -> List.of(new GuardedJobsContributor.ContributedJob("quartz-job", "Quartz job g.q", "RETURN",
                    "PT10S", "PT10S", "PT1S", null, null));
        }
    }

    /** One guarded job. */
    public static class Known {
        @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
        @ClusterSingleton(name = "known", lease = "5s")
        public void run() {
            // never runs: only its annotations are read
        }
    }
}
