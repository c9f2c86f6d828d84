package io.jobguard.quartz;

import io.jobguard.ClusterSingleton;
import io.jobguard.GuardType;
import io.jobguard.JobGuardConfig;
import io.jobguard.testing.AnnotationAttributes;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Quartz path honours every element of {@code @ClusterSingleton} as core's table says: a job class carrying each
 * row's annotation (checked equal to the row's) resolves, for a firing of its trigger, to the row's effect; an
 * invalid value fails with the Spring path's message.
 */
class AnnotationAttributesTest {

    private final QuartzJobOptions jobs = new QuartzJobOptions(null, GuardType.RETURN, Duration.ofMinutes(1), null,
            JobGuardConfig.defaults());
    private final Trigger trigger = TriggerBuilder.newTrigger()
            .withSchedule(CronScheduleBuilder.cronSchedule("0 0 3 * * ?")).build();

    /** One job class per row of the table, each with the row's annotation. */
    private static final Map<String, Class<? extends Job>> JOBS = Map.ofEntries(
            Map.entry("name", Name.class), Map.entry("type", Type.class), Map.entry("lease", Lease.class),
            Map.entry("waitFor", WaitFor.class), Map.entry("busyGrace", BusyGrace.class),
            Map.entry("keepAlive", KeepAlive.class), Map.entry("misfirePolicy", Policy.class),
            Map.entry("delivery", DeliveryOnly.class), Map.entry("catchUpWindow", Window.class),
            Map.entry("catchUpMax", Max.class), Map.entry("attempts", Attempts.class),
            Map.entry("retryBackoff", RetryBackoff.class), Map.entry("retryMultiplier", RetryMultiplier.class),
            Map.entry("retryMaxBackoff", RetryMaxBackoff.class), Map.entry("retryJitter", RetryJitter.class),
            Map.entry("retryOn", RetryOn.class), Map.entry("noRetryOn", NoRetryOn.class),
            Map.entry("historySize", HistorySize.class), Map.entry("historyRetention", HistoryRetention.class));

    @Test
    void everyElementOfTheAnnotationTakesEffect() {
        AnnotationAttributes.assertCoversTheAnnotation();
        assertThat(JOBS.keySet()).isEqualTo(AnnotationAttributes.rows().stream().map(AnnotationAttributes.Row::element)
                .collect(Collectors.toSet()));
        for (AnnotationAttributes.Row row : AnnotationAttributes.rows()) {
            Class<? extends Job> type = JOBS.get(row.element());
            assertThat(type.getAnnotation(ClusterSingleton.class)).as("job class of %s", row).isEqualTo(row.annotation());
            JobDetail detail = JobBuilder.newJob(type).withIdentity("job", "g").build();
            assertThat(row.resolved().apply(jobs.firingOptions(detail, trigger, detail.getJobDataMap())))
                    .as("%s", row).isEqualTo(row.expected());
        }
    }

    @Test
    void anInvalidValueFailsWithTheMessageOfTheSpringPath() {
        JobDetail detail = JobBuilder.newJob(Bad.class).withIdentity("job", "g").build();
        assertThat(Bad.class.getAnnotation(ClusterSingleton.class))
                .isEqualTo(AnnotationAttributes.of(AnnotationAttributes.BadPolicy.class));
        assertThatThrownBy(() -> jobs.resolve(detail)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(AnnotationAttributes.BAD_POLICY_MESSAGE);
    }

    /** A job that does nothing; the subclasses carry the annotations. */
    public abstract static class Nothing implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            // only its guard options are read
        }
    }

    @ClusterSingleton(name = "named")
    public static final class Name extends Nothing {
    }

    @ClusterSingleton(type = GuardType.WAIT)
    public static final class Type extends Nothing {
    }

    @ClusterSingleton(lease = "7s")
    public static final class Lease extends Nothing {
    }

    @ClusterSingleton(waitFor = "3s")
    public static final class WaitFor extends Nothing {
    }

    @ClusterSingleton(busyGrace = "300ms")
    public static final class BusyGrace extends Nothing {
    }

    @ClusterSingleton(keepAlive = false)
    public static final class KeepAlive extends Nothing {
    }

    @ClusterSingleton(misfirePolicy = "RUN_ALL")
    public static final class Policy extends Nothing {
    }

    @ClusterSingleton(delivery = "AT_LEAST_ONCE")
    public static final class DeliveryOnly extends Nothing {
    }

    @ClusterSingleton(misfirePolicy = "SKIP", catchUpWindow = "2h")
    public static final class Window extends Nothing {
    }

    @ClusterSingleton(misfirePolicy = "RUN_ALL", catchUpMax = 5)
    public static final class Max extends Nothing {
    }

    @ClusterSingleton(attempts = 4)
    public static final class Attempts extends Nothing {
    }

    @ClusterSingleton(attempts = 2, retryBackoff = "30s")
    public static final class RetryBackoff extends Nothing {
    }

    @ClusterSingleton(attempts = 2, retryMultiplier = "3")
    public static final class RetryMultiplier extends Nothing {
    }

    @ClusterSingleton(attempts = 2, retryMaxBackoff = "1h")
    public static final class RetryMaxBackoff extends Nothing {
    }

    @ClusterSingleton(attempts = 2, retryJitter = "0.5")
    public static final class RetryJitter extends Nothing {
    }

    @ClusterSingleton(attempts = 2, retryOn = java.io.IOException.class)
    public static final class RetryOn extends Nothing {
    }

    @ClusterSingleton(attempts = 2, noRetryOn = IllegalArgumentException.class)
    public static final class NoRetryOn extends Nothing {
    }

    @ClusterSingleton(historySize = 500)
    public static final class HistorySize extends Nothing {
    }

    @ClusterSingleton(historyRetention = "30d")
    public static final class HistoryRetention extends Nothing {
    }

    @ClusterSingleton(name = "bad", misfirePolicy = "LATER")
    public static final class Bad extends Nothing {
    }
}
