package io.jobguard.spring.it;

import io.jobguard.JobEvent;
import io.jobguard.JobGuard;
import io.jobguard.RunOutcome;
import io.jobguard.micrometer.MetricNames;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The accounting rule, set ({@code SKIP} + {@code AT_MOST_ONCE}) or by default (a job with a grid of fire times and
 * no recovery setting, on job-guard's defaults): two Boot nodes fire an every-2-seconds job (only the Redis command timeout is
 * shortened to 1 s, so a firing while Redis is down is refused in a second instead of Lettuce's 60); Redis is stopped
 * (its data saved, as a persistent Redis keeps it) for several fire times, during which both nodes get
 * {@code STORE_ERROR}, and started again. The check knows only the schedule's grid, the runs the job's body recorded
 * and what job-guard reported: every fire time from the first run to the last ran exactly once or is {@code MISSED}
 * exactly once in the job's history and in {@code jobguard.job.runs} (summed over the nodes), never both; none ran
 * late (no catch-up).
 */
@WithRedis
class AccountingRuleIT {

    private static final Duration PERIOD = Duration.ofSeconds(2);
    private static final JobId ID = new JobId("accounting", "report");

    /**
     * A node's properties. The fleet spread is off: the accounting rule is judged from fire times every node asked
     * for and was refused (with the spread on, a node leaves most of them to the assigned one, and how many both
     * nodes asked for during the outage depends on timing; the rule's argument is the same).
     */
    private static List<String> props(String node, String... more) {
        List<String> props = new ArrayList<>(List.of("jobguard.node-id=" + node, "jobguard.namespace=accounting",
                "spring.data.redis.timeout=1s", "jobguard.spread.enabled=false"));
        props.addAll(List.of(more));
        return props;
    }

    @Test
    void fireTimesNobodyRanDuringARedisOutageAreReportedMissedOnceEach(RedisServerProcess redis) {
        // the accounting rule, set for every job: SKIP reports each fire time nobody started MISSED once, runs none late
        String[] rule = {"jobguard.misfire-policy=SKIP", "jobguard.delivery=AT_MOST_ONCE"};
        everyFireTimeOfAnOutageIsAccountedFor(redis, "set", props("a", rule), props("b", rule));
    }

    @Test
    void aJobWithNoRecoverySettingIsAccountedForByDefault(RedisServerProcess redis) {
        // no recovery setting, the default skew tolerance (5 min): the every-2-seconds job follows the accounting rule
        everyFireTimeOfAnOutageIsAccountedFor(redis, "default", props("a"), props("b"));
    }

    private void everyFireTimeOfAnOutageIsAccountedFor(RedisServerProcess redis, String label, List<String> a,
                                                       List<String> b) {
        AccountingRuleApp.RUNS.clear();
        List<JobEvent> events = new CopyOnWriteArrayList<>();
        List<MeterRegistry> meters = new ArrayList<>();
        Set<Instant> refused = new TreeSet<>();
        try (Nodes nodes = Nodes.start(redis, AccountingRuleApp.class, List.of(a, b))) {
            for (ConfigurableApplicationContext node : nodes.contexts()) {
                node.getBean(JobGuard.class).addListener(events::add);
                meters.add(node.getBean(MeterRegistry.class));
            }
            await().atMost(Duration.ofSeconds(40)).until(() -> AccountingRuleApp.RUNS.size() >= 2);
            redis.call("SAVE");
            redis.stop();
            // several fire times that both nodes were refused for
            await().atMost(Duration.ofSeconds(60)).until(() -> bothRefused(events).size() >= 4);
            refused.addAll(bothRefused(events));
            redis.restart();
            Instant back = Instant.now();
            // three regular runs after Redis is back
            await().atMost(Duration.ofSeconds(60)).until(() -> AccountingRuleApp.RUNS.stream()
                    .filter(r -> r.fireTime().isAfter(back)).count() >= 3);
        }

        List<StartedRun> runs = List.copyOf(AccountingRuleApp.RUNS);
        Instant first = runs.get(0).fireTime();
        Instant last = runs.get(runs.size() - 1).fireTime();
        Map<Instant, Long> ran = runs.stream().collect(Collectors.groupingBy(StartedRun::fireTime,
                TreeMap::new, Collectors.counting()));
        Map<Instant, Long> missedEvents = events.stream().filter(e -> e.outcome() == RunOutcome.MISSED)
                .collect(Collectors.groupingBy(JobEvent::nominalFireTime, TreeMap::new, Collectors.counting()));
        Map<Instant, Long> missedInHistory = missedInHistory(redis);
        double missedCounted = meters.stream().mapToDouble(m -> {
            Counter c = m.find(MetricNames.JOB_RUNS).tag(MetricNames.TAG_JOB, "report")
                    .tag(MetricNames.TAG_OUTCOME, RunOutcome.MISSED.name()).counter();
            return c == null ? 0 : c.count();
        }).sum();
        System.out.printf("[measure] accounting (%s): refused by both nodes %s; MISSED %s; ran %s%n", label, refused,
                missedEvents.keySet(), ran.keySet());

        List<String> problems = new ArrayList<>();
        for (Instant t = first; !t.isAfter(last); t = t.plus(PERIOD)) {
            long r = ran.getOrDefault(t, 0L);
            long m = missedEvents.getOrDefault(t, 0L);
            long h = missedInHistory.getOrDefault(t, 0L);
            if (!(r == 1 && m == 0 && h == 0) && !(r == 0 && m == 1 && h == 1)) {
                problems.add(t + ": ran " + r + ", MISSED events " + m + ", MISSED in history " + h);
            }
        }
        assertThat(problems).as("runs %s, events %s", runs, events).isEmpty();
        assertThat(runs).noneMatch(StartedRun::catchUp);
        assertThat(missedEvents.keySet()).as("every fire time both nodes were refused for is MISSED")
                .containsAll(refused);
        assertThat(missedCounted).isEqualTo(missedEvents.size());
    }

    /**
     * The fire times both nodes were refused for: each reported {@code STORE_ERROR}, or left it to the node the fleet
     * spread assigned the job to ({@code ASSIGNED_ELSEWHERE}) while that node got {@code STORE_ERROR}.
     */
    private static Set<Instant> bothRefused(List<JobEvent> events) {
        Map<Instant, Map<String, RunOutcome>> byTime = new TreeMap<>();
        for (JobEvent e : events) {
            byTime.computeIfAbsent(e.nominalFireTime(), t -> new TreeMap<>()).put(e.nodeId(), e.outcome());
        }
        Set<Instant> both = new TreeSet<>();
        byTime.forEach((t, outcomes) -> {
            if (outcomes.size() == 2 && outcomes.containsValue(RunOutcome.STORE_ERROR) && outcomes.values().stream()
                    .allMatch(o -> o == RunOutcome.STORE_ERROR || o == RunOutcome.ASSIGNED_ELSEWHERE)) {
                both.add(t);
            }
        });
        return both;
    }

    /** The job's history in Redis, read after the nodes closed: MISSED entries per fire time. */
    private static Map<Instant, Long> missedInHistory(RedisServerProcess redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        RedisLeaseStore store = RedisLeaseStore.create(factory);
        try {
            return store.capability(RunHistory.class).orElseThrow().fireHistory(ID, 100).stream()
                    .filter(e -> RunOutcome.MISSED.name().equals(e.outcome()))
                    .collect(Collectors.groupingBy(RunHistory.FireEntry::nominalFireTime, TreeMap::new,
                            Collectors.counting()));
        } finally {
            store.close();
            factory.destroy();
        }
    }
}
