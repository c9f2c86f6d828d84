package io.jobguard.spring.it;

import io.jobguard.JobGuard;
import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every configuration mistake fails at startup with a message naming the culprit. */
@WithRedis
class StartupErrorsIT {

    @Test
    void clusterSingletonWithoutScheduledNamesTheMethod(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton on " + BrokenApps.NotScheduled.class.getName()
                + ".report(): the method is not @Scheduled", "test.case=not-scheduled");
    }

    @Test
    void twoMethodsWithOneJobNameNameBoth(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton job name 'reports' is used by both", "test.case=duplicate");
    }

    @Test
    void placeholderInTheNameResolvesSoNamesDiffer(RedisServerProcess redis) {
        try (ConfigurableApplicationContext ok = start(redis, "test.case=duplicate", "test.second-name=reports-2")) {
            assertThat(ok.getBean(GuardedJobRegistry.class).forName("reports-2")).isPresent();
        }
    }

    @Test
    void nonPositiveLeaseNamesTheMethod(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton on " + BrokenApps.ZeroLease.class.getName()
                + ".run(): lease of job 'ZeroLease.run' must be positive, got PT0S", "test.case=zero-lease");
    }

    @Test
    void unparsableDurationInTheAnnotationNamesTheMethodAndTheValue(RedisServerProcess redis) {
        assertStartupFails(redis, "@ClusterSingleton on " + BrokenApps.BadDuration.class.getName()
                + ".run(): @ClusterSingleton(lease) of job 'BadDuration.run': cannot parse duration 'forever'",
                "test.case=bad-duration");
    }

    @Test
    void unparsableDurationPropertyNamesTheProperty(RedisServerProcess redis) {
        assertStartupFails(redis, "jobguard.default-lease", "test.case=valid", "jobguard.default-lease=forever");
    }

    @Test
    void nonPositivePerJobLeasePropertyNamesTheMethod(RedisServerProcess redis) {
        assertStartupFails(redis, "lease of job 'Valid.run' must be positive", "test.case=valid",
                "jobguard.jobs[Valid.run].lease=0s");
    }

    @Test
    void perJobPropertyOverridesTheAnnotation(RedisServerProcess redis) {
        try (ConfigurableApplicationContext ok = start(redis, "test.case=valid", "jobguard.jobs[Valid.run].lease=7m")) {
            assertThat(ok.getBean(GuardedJobRegistry.class).forName("Valid.run").orElseThrow().options().lease())
                    .isEqualTo(Duration.ofMinutes(7));
        }
    }

    @Test
    void reactiveScheduledMethodOfAnUnsupportedTypeIsRejected(RedisServerProcess redis) {
        // Mono, Flux and CompletableFuture are guarded until they complete (AsyncJobsIT); a bare Publisher is not
        assertStartupFails(redis, "@ClusterSingleton on " + BrokenApps.Reactive.class.getName()
                + ".run(): reactive @Scheduled methods returning Publisher are not supported", "test.case=reactive");
    }

    @Test
    void noRedisConnectionFactoryFailsUnlessDisabled(RedisServerProcess redis) {
        // Boot's Redis auto-configuration by its name on each line (4.x, 3.5): the compatibility modules run this too
        String noRedis = "spring.autoconfigure.exclude="
                + "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration,"
                + "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration";
        assertStartupFails(redis, "job-guard is enabled (jobguard.store=redis) but the application has no "
                + "RedisConnectionFactory bean", "test.case=valid", noRedis);
        try (ConfigurableApplicationContext off = start(redis, "test.case=valid", noRedis, "jobguard.enabled=false")) {
            assertThat(off.getBeanProvider(JobGuard.class).getIfAvailable()).isNull();
        }
    }

    private static void assertStartupFails(RedisServerProcess redis, String message, String... props) {
        assertThatThrownBy(() -> start(redis, props).close())
                .satisfies(e -> assertThat(messages(e)).contains(message));
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        all.append(NestedExceptionUtils.getMostSpecificCause(e).getMessage());
        return all.toString();
    }

    private static ConfigurableApplicationContext start(RedisServerProcess redis, String... props) {
        List<String> all = new ArrayList<>(Arrays.asList(props));
        all.add("jobguard.node-id=startup");
        return Nodes.context(redis, BrokenApps.class, WebApplicationType.NONE, all);
    }
}
