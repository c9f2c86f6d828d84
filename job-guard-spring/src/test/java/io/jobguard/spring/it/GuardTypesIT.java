package io.jobguard.spring.it;

import io.jobguard.spring.firing.GuardedJobRegistry;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** RETURN vs WAIT on a job that sometimes overruns, fixed-delay cool-down across nodes, direct calls. */
@WithRedis
class GuardTypesIT {

    /*
     * The window in which both nodes' schedulers fire: nodes start one after the other, and a node alone
     * that runs a long fire time fires nothing until it ends (one scheduler thread), so T+1 would be nobody's.
     */
    private Instant allUp;
    private Instant closing;

    @BeforeEach
    void clearLog() {
        GuardApp.LOG.clear();
    }

    /**
     * The long run outlasts T+1's firing by 0.5 s, longer than the job's busy grace (100 ms, per job,
     * beating the global 5 s): T+1 is fired, skipped as BUSY and never run.
     */
    @Test
    void returnDropsTheFireTimeThatOverlapsALongRun(RedisServerProcess redis) {
        List<FireLog.Run> runs = overrun(redis, "RETURN", "jobguard.busy-grace=5s",
                "jobguard.jobs.overrun.busy-grace=100ms");
        Map<Instant, List<String>> byT = GuardApp.LOG.byFireTime();
        List<Instant> longOnes = longFireTimesFollowedByMore(byT);
        assertThat(longOnes).isNotEmpty();
        assertThat(longOnes).allSatisfy(t -> assertThat(byT).as("T+1 after long run %s is dropped", t)
                .doesNotContainKey(t.plusSeconds(1)));
        // skipped as busy by a node that asked, or left by the others to the node whose run held the lease (the fleet
        // spread: that node counts the fire times its run overlapped as busy, so no node takes them over)
        assertThat(longOnes).allSatisfy(t -> assertThat(GuardApp.LOG.decisionsFor(t.plusSeconds(1)))
                .as("T+1 after long run %s was fired and skipped", t)
                .anySatisfy(d -> assertThat(d).containsAnyOf(" BUSY at ", " ASSIGNED_ELSEWHERE at ")));
        assertNoOverlap(runs);
    }

    @Test
    void waitRunsTheOverlappingFireTimeLateAfterTheLongRun(RedisServerProcess redis) {
        List<FireLog.Run> runs = overrun(redis, "WAIT");
        Map<Instant, List<String>> byT = GuardApp.LOG.byFireTime();
        List<Instant> longOnes = longFireTimesFollowedByMore(byT);
        assertThat(longOnes).isNotEmpty();
        for (Instant t : longOnes) {
            FireLog.Run longRun = runOf(runs, t);
            FireLog.Run next = runOf(runs, t.plusSeconds(1));
            assertThat(next).as("T+1 after long run %s runs late", t).isNotNull();
            assertThat(next.startNanos()).isGreaterThanOrEqualTo(longRun.endNanos());
        }
        assertNoOverlap(runs);
    }

    @Test
    void fixedDelayIsACoolDownAcrossNodes(RedisServerProcess redis) {
        try (Nodes nodes = Nodes.start(redis, GuardApp.class, List.of(
                List.of("jobguard.node-id=a", "jobguard.namespace=delay", "test.job=delay"),
                List.of("jobguard.node-id=b", "jobguard.namespace=delay", "test.job=delay")))) {
            assertThat(nodes.contexts()).allSatisfy(c ->
                    assertThat(c.getBean(GuardedJobRegistry.class).forName("delay")).isPresent());
            await().atMost(Duration.ofSeconds(30)).until(() -> GuardApp.LOG.runs().size() >= 8);
        }
        List<FireLog.Run> runs = GuardApp.LOG.runs().stream().sorted(Comparator.comparingLong(FireLog.Run::startNanos))
                .toList();
        for (int i = 1; i < runs.size(); i++) {
            long gapMillis = (runs.get(i).startNanos() - runs.get(i - 1).endNanos()) / 1_000_000;
            assertThat(gapMillis).as("gap before run %d of %s", i, runs).isGreaterThanOrEqualTo(700);
        }
    }

    @Test
    void directCallIsGuardedAsTheLatestFireTimeOfItsSchedule(RedisServerProcess redis) {
        try (ConfigurableApplicationContext node = Nodes.context(redis, GuardApp.class, WebApplicationType.NONE,
                List.of("jobguard.node-id=a", "jobguard.namespace=direct", "test.job=yearly"))) {
            GuardApp.YearlyJob job = node.getBean(GuardApp.YearlyJob.class);
            Instant newYear = ZonedDateTime.now(ZoneOffset.UTC).withDayOfYear(1).toLocalDate()
                    .atStartOfDay(ZoneOffset.UTC).toInstant();

            assertThat(job.report()).isEqualTo("done");
            assertThat(job.lastFireTime()).isEqualTo(newYear);
            assertThat(job.report()).as("the same fire time again is skipped").isNull();
            assertThat(job.runs()).isEqualTo(1);
        }
    }

    private List<FireLog.Run> overrun(RedisServerProcess redis, String type, String... extraProps) {
        String ns = "overrun-" + type;
        List<List<String>> props = new ArrayList<>();
        for (String node : List.of("a", "b")) {
            List<String> nodeProps = new ArrayList<>(List.of("jobguard.node-id=" + node, "jobguard.namespace=" + ns,
                    "test.job=overrun", "jobguard.jobs.overrun.type=" + type));
            nodeProps.addAll(List.of(extraProps));
            props.add(nodeProps);
        }
        allUp = null;
        closing = null;
        try (Nodes nodes = Nodes.start(redis, GuardApp.class, props)) {
            assertThat(nodes.contexts()).allSatisfy(c ->
                    assertThat(c.getBean(GuardedJobRegistry.class).forName("overrun")).isPresent());
            allUp = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
            await().atMost(Duration.ofSeconds(40)).until(() -> longFireTimesFollowedByMore(GuardApp.LOG.byFireTime())
                    .size() >= 2);
            closing = Instant.now();
        }
        Map<Instant, List<String>> byT = GuardApp.LOG.byFireTime();
        assertThat(byT).allSatisfy((t, nodes) -> assertThat(nodes).as("nodes that ran %s", t).hasSize(1));
        return GuardApp.LOG.runs();
    }

    /**
     * Long fire times that ran while both nodes were up and were followed by at least two more seconds of
     * fire times.
     */
    private List<Instant> longFireTimesFollowedByMore(Map<Instant, List<String>> byT) {
        Set<Instant> times = byT.keySet();
        Instant last = times.stream().max(Comparator.naturalOrder()).orElse(Instant.EPOCH);
        return times.stream().filter(GuardApp::isLong)
                .filter(t -> allUp != null && !t.isBefore(allUp))
                .filter(t -> closing == null || t.plusSeconds(2).isBefore(closing))
                .filter(t -> !t.plusSeconds(2).isAfter(last)).toList();
    }

    private static FireLog.Run runOf(List<FireLog.Run> runs, Instant t) {
        return runs.stream().filter(r -> r.nominalFireTime().equals(t)).findFirst().orElse(null);
    }

    private static void assertNoOverlap(List<FireLog.Run> runs) {
        List<FireLog.Run> sorted = runs.stream().sorted(Comparator.comparingLong(FireLog.Run::startNanos)).toList();
        for (int i = 1; i < sorted.size(); i++) {
            assertThat(sorted.get(i).startNanos()).as("run %s starts after %s ended", sorted.get(i), sorted.get(i - 1))
                    .isGreaterThanOrEqualTo(sorted.get(i - 1).endNanos());
        }
    }
}
