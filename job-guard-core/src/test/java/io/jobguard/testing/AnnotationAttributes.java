package io.jobguard.testing;

import io.jobguard.ClusterSingleton;
import io.jobguard.Delivery;
import io.jobguard.GuardType;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every element of {@link ClusterSingleton}, set away from its default on an annotation, with what the resolved
 * {@link JobOptions} must then show. Core's resolver, the Spring path and the Quartz path are each checked against
 * this table, and the table against the annotation's elements: an element added to the annotation fails all three
 * until it is mapped and honoured everywhere.
 */
public final class AnnotationAttributes {

    /** An invalid value: both paths refuse it with this message (Spring prefixes the method). */
    public static final String BAD_POLICY_MESSAGE =
            "@ClusterSingleton(misfirePolicy) of job 'bad' is \"LATER\", not one of [SKIP, RUN_LATEST, RUN_ALL]";

    private AnnotationAttributes() {
    }

    /**
     * One element set on an annotation, and what the options resolved from it (and no other source) show.
     *
     * @param element    the annotation element
     * @param annotation an annotation that sets it (and, for the recovery's window and maximum, a misfire policy)
     * @param resolved   reads the element's effect from resolved options
     * @param expected   the effect
     */
    public record Row(String element, ClusterSingleton annotation, Function<JobOptions, Object> resolved,
                      Object expected) {
        @Override
        public String toString() {
            return element;
        }
    }

    /** The annotation with an invalid misfire policy, for job 'bad'. */
    @ClusterSingleton(name = "bad", misfirePolicy = "LATER")
    public static final class BadPolicy {
    }

    @ClusterSingleton(name = "named")
    private static final class Name {
    }

    @ClusterSingleton(type = GuardType.WAIT)
    private static final class Type {
    }

    @ClusterSingleton(lease = "7s")
    private static final class Lease {
    }

    @ClusterSingleton(waitFor = "3s")
    private static final class WaitFor {
    }

    @ClusterSingleton(busyGrace = "300ms")
    private static final class BusyGrace {
    }

    @ClusterSingleton(keepAlive = false)
    private static final class KeepAlive {
    }

    @ClusterSingleton(misfirePolicy = "RUN_ALL")
    private static final class Policy {
    }

    @ClusterSingleton(delivery = "AT_LEAST_ONCE")
    private static final class DeliveryOnly {
    }

    @ClusterSingleton(misfirePolicy = "SKIP", catchUpWindow = "2h")
    private static final class Window {
    }

    @ClusterSingleton(misfirePolicy = "RUN_ALL", catchUpMax = 5)
    private static final class Max {
    }

    @ClusterSingleton(attempts = 4)
    private static final class Attempts {
    }

    @ClusterSingleton(attempts = 2, retryBackoff = "30s")
    private static final class RetryBackoff {
    }

    @ClusterSingleton(attempts = 2, retryMultiplier = "3")
    private static final class RetryMultiplier {
    }

    @ClusterSingleton(attempts = 2, retryMaxBackoff = "1h")
    private static final class RetryMaxBackoff {
    }

    @ClusterSingleton(attempts = 2, retryJitter = "0.5")
    private static final class RetryJitter {
    }

    @ClusterSingleton(attempts = 2, retryOn = java.io.IOException.class)
    private static final class RetryOn {
    }

    @ClusterSingleton(attempts = 2, noRetryOn = IllegalArgumentException.class)
    private static final class NoRetryOn {
    }

    @ClusterSingleton(historySize = 500)
    private static final class HistorySize {
    }

    @ClusterSingleton(historyRetention = "30d")
    private static final class HistoryRetention {
    }

    /**
     * The table, one row per element of the annotation.
     *
     * @return the rows
     */
    public static List<Row> rows() {
        return List.of(
                row("name", Name.class, JobOptions::name, "named"),
                row("type", Type.class, JobOptions::type, GuardType.WAIT),
                row("lease", Lease.class, JobOptions::lease, Duration.ofSeconds(7)),
                row("waitFor", WaitFor.class, JobOptions::waitFor, Duration.ofSeconds(3)),
                row("busyGrace", BusyGrace.class, JobOptions::busyGrace, Duration.ofMillis(300)),
                row("keepAlive", KeepAlive.class, JobOptions::keepAlive, false),
                row("misfirePolicy", Policy.class, o -> o.recovery() == null ? null : o.recovery().misfirePolicy(),
                        MisfirePolicy.RUN_ALL),
                row("delivery", DeliveryOnly.class, o -> o.recovery() == null ? null : o.recovery().delivery(),
                        Delivery.AT_LEAST_ONCE),
                row("catchUpWindow", Window.class, o -> o.recovery() == null ? null : o.recovery().catchUpWindow(),
                        Duration.ofHours(2)),
                row("catchUpMax", Max.class, o -> o.recovery() == null ? null : o.recovery().catchUpMax(), 5),
                row("attempts", Attempts.class, o -> o.retry().attempts(), 4),
                row("retryBackoff", RetryBackoff.class, o -> o.retry().backoff(), Duration.ofSeconds(30)),
                row("retryMultiplier", RetryMultiplier.class, o -> o.retry().multiplier(), 3.0),
                row("retryMaxBackoff", RetryMaxBackoff.class, o -> o.retry().maxBackoff(), Duration.ofHours(1)),
                row("retryJitter", RetryJitter.class, o -> o.retry().jitter(), 0.5),
                row("retryOn", RetryOn.class, o -> o.retry().retryOn(), List.of(java.io.IOException.class)),
                row("noRetryOn", NoRetryOn.class, o -> o.retry().noRetryOn(), List.of(IllegalArgumentException.class)),
                row("historySize", HistorySize.class, JobOptions::historySize, 500),
                row("historyRetention", HistoryRetention.class, JobOptions::historyRetention, Duration.ofDays(30)));
    }

    /**
     * The annotation of a holder class.
     *
     * @param holder the class
     * @return its annotation
     */
    public static ClusterSingleton of(Class<?> holder) {
        return holder.getAnnotation(ClusterSingleton.class);
    }

    /** Fails unless the table has exactly one row per element of the annotation, each setting its element. */
    public static void assertCoversTheAnnotation() {
        Set<String> elements = Arrays.stream(ClusterSingleton.class.getDeclaredMethods()).map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> mapped = rows().stream().map(Row::element).collect(Collectors.toCollection(TreeSet::new));
        assertThat(mapped).as("rows of the table; add one for each new element of @ClusterSingleton")
                .isEqualTo(elements).hasSize(rows().size());
        for (Row row : rows()) {
            try {
                Method element = ClusterSingleton.class.getMethod(row.element());
                assertThat(element.invoke(row.annotation())).as("row %s sets its element", row)
                        .isNotEqualTo(element.getDefaultValue());
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static Row row(String element, Class<?> holder, Function<JobOptions, Object> resolved, Object expected) {
        return new Row(element, of(holder), resolved, expected);
    }
}
