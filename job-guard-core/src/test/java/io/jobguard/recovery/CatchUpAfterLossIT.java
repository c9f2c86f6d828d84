package io.jobguard.recovery;

import io.jobguard.internal.engine.JobGuardEngine;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.Admission;
import io.jobguard.Delivery;
import io.jobguard.FireTimeSchedule;
import io.jobguard.FiringPermit;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.MisfirePolicy;
import io.jobguard.NodeConfig;
import io.jobguard.RecoveryOptions;
import io.jobguard.RunContext;
import io.jobguard.RunOutcome;
import io.jobguard.internal.engine.MissedFireTimeRecovery;
import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunHistory;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Misfire policies after Redis lost its data, on a real redis-server: three nodes (own connections, engines and
 * stores; clocks −700 ms, 0 and +1.5 s) fire an every-second {@code RUN_ALL} job and an every-second
 * {@code RUN_LATEST} job, each node from its own scheduler threads through {@link MissedFireTimeRecovery#admit}, across a
 * Redis outage that ends with Redis back empty, and across a {@code FLUSHALL} without outage. Each node writes what it
 * started and every outcome it heard into its own ledger; the checks read only the ledgers (and the leads hash's
 * re-creation, which dates the loss): no fire time started twice; no fire time both run or reported {@code MISSED}
 * twice, or reported {@code MISSED} and refused {@code HISTORY_LOST}; none refused was started after the loss; every
 * fire time of the grid from the job's first to its last regular run, the outage's own included, started, was
 * reported {@code MISSED} or refused {@code HISTORY_LOST}; and none from U + W (the loss's date + the fleet's largest
 * lead + 250 ms) on was refused. After the loss, the first node whose call declares fire times refused or missed without
 * a run ({@code HISTORY_LOST} or {@code MISSED}: a miss declaration, or a refusal that passes over earlier fire times)
 * is killed right after that call, before it reports anything: its ledger ends there, and the fire times it decided
 * count as accounted for only through the job's history in Redis (the record), which the check reads as well.
 */
@WithRedis
class CatchUpAfterLossIT {

    private static final Duration SKEW = Duration.ofSeconds(10);
    private static final long[] OFFSETS = {-700, 0, 1500};
    private static final long LARGEST_LEAD = 1500;
    /** The margin LossWindows adds to the largest lead, and room for the measured offsets' error. */
    private static final long MARGIN = 250 + 150;
    private static final FireTimeSchedule EVERY_SECOND = after -> Instant.ofEpochMilli(
            Math.floorDiv(after.toEpochMilli(), 1000) * 1000 + 1000);
    private static final Pattern RUN_AGAIN = Pattern.compile("job '([^']+)'.* fire times from (\\S+) run again");
    /** Entries each job's history keeps here: every post-loss entry of a run of this class stays readable. */
    private static final int HISTORY = 1000;

    private final RedisServerProcess redis;
    private final List<Node> nodes = new ArrayList<>();
    private final ListAppender<ILoggingEvent> windows = new ListAppender<>();
    private final Logger windowsLogger = (Logger) LoggerFactory.getLogger("io.jobguard.internal.redis.loss.LossWindows");
    /** Set once Redis lost its data: the next call that decides fire times without a run kills its node. */
    private final AtomicBoolean killArmed = new AtomicBoolean();
    /** What the kill hit: node, decision and fire time, for the report. */
    private final List<String> killed = new CopyOnWriteArrayList<>();

    CatchUpAfterLossIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        redis.ensureRunning();
        redis.flushAll();
        windows.start();
        windowsLogger.addAppender(windows);
    }

    @AfterEach
    void stop() {
        nodes.forEach(Node::close);
        windowsLogger.detachAppender(windows);
        redis.ensureRunning();
    }

    /** One ledger line: what a node saw for a fire time of a job. */
    private record Entry(String node, String job, Instant fireTime, String what, Instant at) {
        Entry(String node, String job, Instant fireTime, String what) {
            this(node, job, fireTime, what, Instant.now());
        }
    }

    /** A node: its own connections, store, engine and clock, one scheduler thread per job, its own ledger. */
    private final class Node {
        final String id;
        final Clock clock;
        final LettuceConnectionFactory factory;
        final RedisLeaseStore store;
        final JobGuard guard;
        final MissedFireTimeRecovery missed;
        final List<Entry> ledger = new CopyOnWriteArrayList<>();
        final List<Thread> schedulers = new ArrayList<>();
        volatile boolean stopping;
        /** Killed: it records, reports and fires nothing more, as a SIGKILLed process. */
        volatile boolean dead;

        Node(String id, long offsetMillis) {
            this.id = id;
            this.clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMillis));
            this.factory = redis.connectionFactory(Duration.ofSeconds(1));
            this.store = RedisLeaseStore.create(factory, "jgloss");
            this.guard = JobGuard.create(new UnreachableStore(store, () -> false, failed -> { }, this::afterDeciding),
                    JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                            .skewTolerance(SKEW).clock(clock).historySize(HISTORY)
                            .build());
            guard.addListener(e -> {
                if (!dead) {
                    ledger.add(new Entry(id, e.job(), e.nominalFireTime(), e.outcome().name()));
                }
            });
            this.missed = ((JobGuardEngine) guard).missedFireTimeRecovery();
        }

        /** After a call that decided fire times: the first one after the loss that declares some without a run kills this node. */
        private void afterDeciding(Instant nominalFireTime, AcquireResult answer) {
            boolean withoutRun = answer.status() == AcquireResult.Status.MISSED
                    || answer.status() == AcquireResult.Status.HISTORY_LOST;
            if (withoutRun && killArmed.compareAndSet(true, false)) {
                dead = true;
                stopping = true;
                killed.add(id + " after " + answer.status() + " T=" + nominalFireTime);
                throw new Killed();
            }
        }

        void schedule(String jobName, MisfirePolicy policy) {
            JobOptions job = JobOptions.builder(jobName, Duration.ofSeconds(10)).build();
            RecoveryOptions recovery = RecoveryOptions.builder().misfirePolicy(policy)
                    .catchUpWindow(Duration.ofMinutes(5)).catchUpMax(50).delivery(Delivery.AT_MOST_ONCE).maxAttempts(3)
                    .schedule(EVERY_SECOND).build();
            Runnable body = () -> {
                RunContext run = RunContext.current().orElseThrow();
                ledger.add(new Entry(id, jobName, run.nominalFireTime(), run.isCatchUp() ? "START catch-up" : "START"));
                if (dead) {
                    // a run that the node's other job's thread had under way when the node was killed: it started
                    // (its ledger line, as a process writes it before the work) and dies here
                    throw new Killed();
                }
            };
            Thread scheduler = new Thread(() -> {
                // as a scheduler does: the next grid point after the later of the last fire time and now
                Instant next = EVERY_SECOND.next(clock.instant());
                while (!stopping) {
                    long wait = Duration.between(clock.instant(), next).toNanos();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                        continue;
                    }
                    Admission admission = missed.admit(job, recovery, next, body);
                    if (admission.granted()) {
                        try (FiringPermit permit = admission.permit()) {
                            body.run();
                            permit.finish(null);
                        }
                    }
                    Instant now = clock.instant();
                    next = EVERY_SECOND.next(now.isAfter(next) ? now : next);
                }
            }, "scheduler-" + id + "-" + jobName);
            scheduler.setDaemon(true);
            // the kill ends the thread where it stands
            scheduler.setUncaughtExceptionHandler((thread, e) -> {
                if (!(e instanceof Killed)) {
                    e.printStackTrace();
                }
            });
            schedulers.add(scheduler);
            scheduler.start();
        }

        /** Stops the schedulers after their current firing. */
        void halt() {
            stopping = true;
            for (Thread t : schedulers) {
                LockSupport.unpark(t);
                try {
                    t.join(TimeUnit.SECONDS.toMillis(20));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        void close() {
            halt();
            guard.close();
            store.close();
            factory.destroy();
        }
    }

    /** Thrown where a node is killed. */
    private static final class Killed extends Error {
        private static final long serialVersionUID = 1L;

        Killed() {
            super("node killed right after a call that decided fire times", null, false, false);
        }
    }

    private void startNodes() {
        String[] ids = {"a", "b", "c"};
        for (int i = 0; i < ids.length; i++) {
            nodes.add(new Node(ids[i], OFFSETS[i]));
        }
        for (Node node : nodes) {
            node.schedule("all", MisfirePolicy.RUN_ALL);
            node.schedule("latest", MisfirePolicy.RUN_LATEST);
        }
    }

    private List<Entry> ledgers() {
        List<Entry> all = new ArrayList<>();
        nodes.forEach(n -> all.addAll(n.ledger));
        return all;
    }

    /** Waits until each job ran {@code count} regular fire times after {@code after} (Redis time, roughly). */
    private void awaitRegularRuns(Instant after, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> List.of("all", "latest").stream().allMatch(job ->
                ledgers().stream().filter(e -> e.job().equals(job) && e.what().equals("START")
                        && e.fireTime().isAfter(after)).count() >= count));
    }

    /**
     * Waits until every node has fired each job at least once: the losses here are judged by nodes that know the job
     * (a node's first call for a job right after a loss is HistoryLossIT's case, docs/reliability.md §2).
     */
    private void awaitEveryNodeFiredEachJob() {
        await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(node -> List.of("all", "latest")
                .stream().allMatch(job -> node.ledger.stream().anyMatch(e -> e.job().equals(job)))));
    }

    /** The re-created leads hash's creation: no earlier than the loss, the U the window counts from. */
    private Instant lineage() {
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> String.valueOf(redis.call("HGET", "jgloss:leads", "~lineage")).endsWith("|lost"));
        return Instant.ofEpochMilli(Long.parseLong(String.valueOf(redis.call("HGET", "jgloss:leads", "~lineage"))
                .split("\\|")[0]));
    }

    private static Instant redisTime(RedisServerProcess redis) {
        @SuppressWarnings("unchecked")
        List<Object> time = (List<Object>) redis.call("TIME");
        return Instant.ofEpochSecond(Long.parseLong(String.valueOf(time.get(0))),
                Long.parseLong(String.valueOf(time.get(1))) * 1000);
    }

    @Test
    void anOutageThatEndsWithRedisEmptyRunsNothingTwiceAndLosesNoFireTimeWithoutAWord() {
        startNodes();
        awaitRegularRuns(Instant.EPOCH, 3);
        awaitEveryNodeFiredEachJob();
        Instant down = redisTime(redis);
        redis.stop(); // SHUTDOWN NOSAVE, started without persistence: it comes back empty
        Instant back = Instant.now().plusSeconds(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(back));
        killArmed.set(true);
        redis.restart();
        Instant u = lineage();
        awaitRegularRuns(u.plusMillis(LARGEST_LEAD + MARGIN), 4);
        nodes.forEach(Node::halt);
        judge(down, u);
    }

    @Test
    void aFlushAllWithoutOutageRunsNothingTwiceAndLosesNoFireTimeWithoutAWord() {
        startNodes();
        awaitRegularRuns(Instant.EPOCH, 3);
        awaitEveryNodeFiredEachJob();
        Instant flushed = redisTime(redis);
        killArmed.set(true);
        redis.flushAll();
        Instant u = lineage();
        awaitRegularRuns(u.plusMillis(LARGEST_LEAD + MARGIN), 4);
        nodes.forEach(Node::halt);
        judge(flushed, u);
    }

    /**
     * The independent check over the nodes' ledgers, per job: from its first to its last regular run.
     *
     * @param lost when the data were lost at the latest (the outage's start or the flush)
     * @param u    the leads hash's re-creation (the loss is dated no earlier)
     */
    private void judge(Instant lost, Instant u) {
        List<Entry> all = ledgers();
        Instant safeFrom = u.plusMillis(LARGEST_LEAD + MARGIN);
        Map<String, Instant> logged = new TreeMap<>();
        for (ILoggingEvent e : windows.list) {
            Matcher m = RUN_AGAIN.matcher(e.getFormattedMessage());
            if (m.find()) {
                logged.merge(m.group(1), Instant.parse(m.group(2)), (x, y) -> x.isAfter(y) ? x : y);
            }
        }
        StringBuilder report = new StringBuilder("lost at " + lost + ", U " + u + ", safe from " + safeFrom
                + ", logged window ends " + logged + ", killed " + killed + "\n");
        Node reader = nodes.stream().filter(n -> !n.dead).findFirst().orElseThrow();
        for (String job : List.of("all", "latest")) {
            List<Entry> mine = all.stream().filter(e -> e.job().equals(job)).toList();
            // what the calls recorded without a run (the history holds only entries written after the loss)
            List<RunHistory.FireEntry> recorded = reader.store.fireHistory(
                    new JobId(reader.guard.config().namespace(), job), HISTORY);
            Instant first = mine.stream().filter(e -> e.what().equals("START")).map(Entry::fireTime).min(Instant::compareTo)
                    .orElseThrow();
            Instant last = mine.stream().filter(e -> e.what().equals("START")).map(Entry::fireTime).max(Instant::compareTo)
                    .orElseThrow();
            int caughtUp = 0;
            List<String> problems = new ArrayList<>();
            for (Instant t = first; !t.isAfter(last); t = t.plusSeconds(1)) {
                Instant at = t;
                List<Entry> of = mine.stream().filter(e -> e.fireTime().equals(at)).toList();
                long started = of.stream().filter(e -> e.what().startsWith("START")).count();
                long recordedMissed = recorded.stream().filter(e -> e.nominalFireTime().equals(at)
                        && e.outcome().equals("MISSED")).count();
                boolean recordedRefused = recorded.stream().anyMatch(e -> e.nominalFireTime().equals(at)
                        && e.outcome().equals("HISTORY_LOST"));
                if (recordedMissed > 1) {
                    problems.add("recorded MISSED twice: " + job + " " + t);
                }
                // a node reports what its call recorded: one decision, heard or recorded or both
                long missed = Math.max(of.stream().filter(e -> e.what().equals("MISSED")).count(), recordedMissed);
                boolean refused = recordedRefused || of.stream().anyMatch(e -> e.what().equals("HISTORY_LOST"));
                caughtUp += (int) of.stream().filter(e -> e.what().equals("START catch-up")).count();
                String line = job + " " + t + ": " + of.stream().map(e -> e.node() + ":" + e.what()).toList()
                        + (recordedMissed > 0 ? " recorded MISSED" : "") + (recordedRefused ? " recorded HISTORY_LOST" : "");
                report.append(line).append('\n');
                if (started > 1) {
                    problems.add("started twice: " + line);
                }
                if (missed > 1) {
                    problems.add("reported MISSED twice: " + line);
                }
                if (started + missed > 1) {
                    problems.add("accounted for more than once (RAN, MISSED): " + line);
                }
                if (started + missed == 0 && !refused) {
                    problems.add("not accounted for (RAN, MISSED or HISTORY_LOST): " + line);
                }
                if (refused && missed > 0) {
                    problems.add("reported MISSED and HISTORY_LOST: " + line);
                }
                if (refused && of.stream().anyMatch(e -> e.what().startsWith("START") && e.at().isAfter(lost))) {
                    problems.add("refused HISTORY_LOST, and run after the loss: " + line);
                }
                if (refused && !t.isBefore(safeFrom)) {
                    problems.add("refused at or after U + W: " + line);
                }
            }
            report.append(job).append(": ").append(caughtUp).append(" catch-up(s)\n");
            assertThat(problems).as(report.toString()).isEmpty();
            assertThat(logged.get(job)).as("the window logged for %s\n%s", job, report)
                    .isNotNull().isBeforeOrEqualTo(safeFrom);
        }
        System.out.println(report);
    }
}
