package io.jobguard.quartz;

import io.jobguard.GuardType;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import org.junit.jupiter.api.Test;
import org.quartz.JobBuilder;
import org.quartz.impl.matchers.GroupMatcher;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which Quartz jobs are guarded and with which options: JobDataMap, then annotation, then defaults. */
class QuartzJobOptionsTest {

    private final QuartzJobOptions jobs = new QuartzJobOptions(GroupMatcher.jobGroupEquals("guarded"), GuardType.RETURN,
            Duration.ofMinutes(2), null, JobGuardConfig.defaults());

    @Test
    void anAnnotatedJobIsGuardedWithTheAnnotationsOptions() {
        JobOptions options = jobs.resolve(JobBuilder.newJob(TestJobs.AnnotatedWait.class)
                .withIdentity("w", "g").build());
        assertThat(options).isEqualTo(JobOptions.builder("annotated-wait", Duration.ofSeconds(7))
                .type(GuardType.WAIT).waitFor(Duration.ofSeconds(3)).busyGrace(Duration.ofMillis(300)).keepAlive(false)
                .build());
    }

    @Test
    void jobDataMapEntriesOverrideTheAnnotation() {
        JobOptions options = jobs.resolve(JobBuilder.newJob(TestJobs.AnnotatedWait.class).withIdentity("w", "g")
                .usingJobData(ClusterSingletonListener.NAME, "renamed")
                .usingJobData(ClusterSingletonListener.TYPE, "return")
                .usingJobData(ClusterSingletonListener.LEASE, "45s")
                .usingJobData(ClusterSingletonListener.BUSY_GRACE, "0s")
                .usingJobData(ClusterSingletonListener.KEEP_ALIVE, "true").build());
        assertThat(options.name()).isEqualTo("renamed");
        assertThat(options.type()).isEqualTo(GuardType.RETURN);
        assertThat(options.lease()).isEqualTo(Duration.ofSeconds(45));
        assertThat(options.waitFor()).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.busyGrace()).isZero();
        assertThat(options.keepAlive()).isTrue();
    }

    @Test
    void rememberedJobsAreBoundedWhenEveryFiringHasItsOwnJob() {
        for (int i = 0; i < QuartzJobOptions.MAX_SEEN + 50; i++) {
            jobs.resolve(JobBuilder.newJob(TestJobs.AnnotatedWait.class).withIdentity("once-" + i, "g").build());
        }
        assertThat(jobs.seen()).hasSize(QuartzJobOptions.MAX_SEEN).containsKey("g.once-" + (QuartzJobOptions.MAX_SEEN + 49))
                .doesNotContainKey("g.once-0");
    }

    @Test
    void aPlainJobIsGuardedOnlyWhenEnabledOrMatchedAndIsNamedAfterItsKey() {
        assertThat(jobs.resolve(plain("other").build())).isNull();
        JobOptions matched = jobs.resolve(plain("guarded").build());
        assertThat(matched).isEqualTo(JobOptions.builder("guarded.job", Duration.ofMinutes(2)).build());
        JobOptions enabled = jobs.resolve(plain("other").usingJobData(ClusterSingletonListener.ENABLED, true).build());
        assertThat(enabled.name()).isEqualTo("other.job");
        assertThat(jobs.seen()).containsOnlyKeys("guarded.job", "other.job");
    }

    @Test
    void enabledFalseOptsAnAnnotatedOrMatchedJobOut() {
        assertThat(jobs.resolve(JobBuilder.newJob(TestJobs.AnnotatedWait.class)
                .usingJobData(ClusterSingletonListener.ENABLED, "false").build())).isNull();
        assertThat(jobs.resolve(plain("guarded").usingJobData(ClusterSingletonListener.ENABLED, false).build()))
                .isNull();
    }

    @Test
    void badEntriesAreRejectedNamingTheJobAndTheEntry() {
        assertThatThrownBy(() -> jobs.resolve(plain("guarded").usingJobData(ClusterSingletonListener.LEASE, "soon")
                .build())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jobguard.lease").hasMessageContaining("guarded.job").hasMessageContaining("soon");
        assertThatThrownBy(() -> jobs.resolve(plain("guarded").usingJobData(ClusterSingletonListener.TYPE, "LATER")
                .build())).hasMessageContaining("jobguard.type").hasMessageContaining("guarded.job");
        assertThatThrownBy(() -> jobs.resolve(plain("g").usingJobData(ClusterSingletonListener.ENABLED, "yes")
                .build())).hasMessageContaining("jobguard.enabled").hasMessageContaining("g.job");
        assertThat(jobs.probablyGuarded(plain("g").usingJobData(ClusterSingletonListener.ENABLED, "yes").build()))
                .isTrue();
        assertThat(jobs.probablyGuarded(plain("g").build())).isFalse();
    }

    @Test
    void withoutAListenerDefaultLeaseAJobTakesTheEnginesDefaultLease() {
        QuartzJobOptions onEngineDefaults = new QuartzJobOptions(GroupMatcher.jobGroupEquals("guarded"), null, null,
                null, JobGuardConfig.builder().defaultLease(Duration.ofMinutes(7)).build());
        assertThat(onEngineDefaults.resolve(plain("guarded").build()))
                .isEqualTo(JobOptions.builder("guarded.job", Duration.ofMinutes(7)).build());
        // the listener's own default and the job's entry still come first
        assertThat(jobs.resolve(plain("guarded").build()).lease()).isEqualTo(Duration.ofMinutes(2));
        assertThat(onEngineDefaults.resolve(plain("guarded").usingJobData(ClusterSingletonListener.LEASE, "45s").build())
                .lease()).isEqualTo(Duration.ofSeconds(45));
    }

    private static JobBuilder plain(String group) {
        return JobBuilder.newJob(TestJobs.Plain.class).withIdentity("job", group);
    }

}
