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
    private static final Map<String, Class<? extends Job>> JOBS = Map.of(
            "name", Name.class, "type", Type.class, "lease", Lease.class, "waitFor", WaitFor.class,
            "busyGrace", BusyGrace.class, "keepAlive", KeepAlive.class, "misfirePolicy", Policy.class,
            "delivery", DeliveryOnly.class, "catchUpWindow", Window.class, "catchUpMax", Max.class);

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

    @ClusterSingleton(name = "bad", misfirePolicy = "LATER")
    public static final class Bad extends Nothing {
    }
}
