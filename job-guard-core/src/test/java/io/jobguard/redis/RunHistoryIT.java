package io.jobguard.redis;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jobguard.JobGuard;
import io.jobguard.JobGuardConfig;
import io.jobguard.JobOptions;
import io.jobguard.NodeConfig;
import io.jobguard.RunOutcome;
import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.store.HistoryFormat;
import io.jobguard.store.JobId;
import io.jobguard.store.RunEnd;
import io.jobguard.store.RunHistory;
import io.jobguard.store.RunHistory.FireEntry;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On a real redis-server, the run history a job keeps: each entry's fields (a failure's class and first message line,
 * bounded), retention by count and by age enforced by the release itself (no other command, within 32 releases),
 * search and cursor paging that never repeat an entry while new ones arrive, the export formats, and a value at the
 * history key that is not job-guard's: refused with a WARN naming the key, never failing a firing.
 */
@WithRedis
class RunHistoryIT {

    private static final String PREFIX = "jghist";
    private static final String NAMESPACE = "hist";

    private final RedisServerProcess redis;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private LettuceConnectionFactory factory;

    RunHistoryIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @BeforeEach
    void start() {
        redis.flushAll();
        factory = redis.connectionFactory(Duration.ofSeconds(5));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        factory.destroy();
    }

    private JobGuard node(String id) {
        RedisLeaseStore store = RedisLeaseStore.create(factory, PREFIX);
        JobGuard guard = JobGuard.create(store, JobGuardConfig.builder().node(NodeConfig.builder().nodeId(id).build())
                .namespace(NAMESPACE).build());
        closeables.add(guard);
        closeables.add(store);
        return guard;
    }

    private static String historyKey(String job) {
        return new KeySchema(PREFIX).of(new JobId(NAMESPACE, job), JobKey.HISTORY);
    }

    /** The list's length once this node's releases have been answered (they are sent without waiting). */
    private long length(JobGuard guard, String job) {
        guard.history(job, RunHistory.Query.ALL, null, 1);
        return (Long) redis.call("LLEN", historyKey(job));
    }

    /** A fire time an hour ago: an engine runs a fire time no earlier than its time, and these tests fire many. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(1));
    }

    @Test
    void aFailedRunKeepsItsClassFirstMessageLineAttemptStartEndDurationAndToken() {
        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("fails", Duration.ofSeconds(10)).build();
        Instant t1 = now();
        Instant t2 = t1.plusSeconds(1);
        assertThatThrownBy(() -> a.run(job, t1, () -> {
            throw new IllegalStateException("disk full | on /var 100%\nat line two");
        })).hasMessageContaining("disk full");
        String longMessage = "x".repeat(1_000);
        assertThatThrownBy(() -> a.run(job, t2, () -> {
            throw new java.io.UncheckedIOException(longMessage, new java.io.IOException());
        })).hasMessage(longMessage);

        List<FireEntry> history = a.history("fails", RunHistory.Query.ALL, null, 10).entries();
        assertThat(history).extracting(FireEntry::nominalFireTime).containsExactly(t2, t1);
        FireEntry first = history.get(1);
        assertThat(first.outcome()).isEqualTo("FAILED");
        assertThat(first.node()).isEqualTo("node-a");
        assertThat(first.attempt()).isEqualTo(1);
        assertThat(first.failureClass()).isEqualTo(IllegalStateException.class.getName());
        assertThat(first.failureMessage()).as("the first line, its '|' and '%%' kept")
                .isEqualTo("disk full | on /var 100%");
        assertThat(first.fencingToken()).isPositive();
        assertThat(first.start()).isNotNull();
        assertThat(first.end()).isEqualTo(first.start().plus(first.duration()));
        FireEntry second = history.get(0);
        assertThat(second.failureMessage()).hasSize(RunEnd.MAX_FAILURE_TEXT).endsWith("...");
        assertThat(second.failureClass()).isEqualTo(java.io.UncheckedIOException.class.getName());
    }

    @Test
    void aSuccessfulRunHasNoFailureAndADecidedFireTimeNoStart() {
        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("ok", Duration.ofSeconds(10)).build();
        Instant t = now();
        assertThat(a.run(job, t, () -> { })).isEqualTo(RunOutcome.RAN);
        a.pause("ok", "test");
        assertThat(a.run(job, t.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.PAUSED);
        List<FireEntry> history = a.history("ok", RunHistory.Query.ALL, null, 10).entries();
        assertThat(history).extracting(FireEntry::outcome).containsExactly("PAUSED", "RAN");
        assertThat(history.get(0).start()).isNull();
        assertThat(history.get(0).end()).isNull();
        assertThat(history.get(1).failureClass()).isNull();
        assertThat(history.get(1).end()).isNotNull();
    }

    @Test
    void retentionByCountKeepsTheNewestEntriesWithinThirtyTwoOfTheSize() {
        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("counted", Duration.ofSeconds(10)).historySize(40).build();
        Instant t = now();
        for (int i = 0; i < 150; i++) {
            assertThat(a.run(job, t.plusSeconds(i), () -> { })).isEqualTo(RunOutcome.RAN);
            assertThat(length(a, "counted")).as("after firing %d", i).isLessThanOrEqualTo(40 + 32);
        }
        List<FireEntry> all = new ArrayList<>();
        a.exportHistory("counted", RunHistory.Query.ALL, all::add);
        assertThat(all).hasSizeBetween(40, 72);
        assertThat(all.subList(0, 40)).extracting(FireEntry::nominalFireTime)
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 40)
                        .mapToObj(i -> t.plusSeconds(149 - i)).toList());
    }

    @Test
    void retentionByAgeDropsOnlyEntriesOlderThanTheRetentionAtTheTrimAndAnHourlyJobKeepsFourteenDays() {
        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("aged", Duration.ofSeconds(10)).build();
        Instant t = now();
        long thirteenDays = t.minus(Duration.ofDays(13)).toEpochMilli();
        long fifteenDays = t.minus(Duration.ofDays(15)).toEpochMilli();
        String key = historyKey("aged");
        // the tail holds the oldest: 20 hourly entries 13 days old, then 30 of 15 days (the default retention: 14 days)
        for (int i = 0; i < 20; i++) {
            redis.call("RPUSH", key, "n|MISSED|" + (thirteenDays - i * 3_600_000L) + "|" + thirteenDays + "|old");
        }
        for (int i = 0; i < 30; i++) {
            redis.call("RPUSH", key, "n|MISSED|" + (fifteenDays - i * 3_600_000L) + "|" + fifteenDays + "|older");
        }
        for (int i = 0; i < 13; i++) {
            assertThat(a.run(job, t.plusSeconds(i), () -> { })).isEqualTo(RunOutcome.RAN);
        }
        assertThat(length(a, "aged")).as("no trim before the length reaches a multiple of 32").isEqualTo(63);
        assertThat(a.run(job, t.plusSeconds(13), () -> { })).isEqualTo(RunOutcome.RAN);
        assertThat(length(a, "aged")).as("the release that made it 64 dropped the 30 entries past 14 days")
                .isEqualTo(34);
        List<FireEntry> kept = new ArrayList<>();
        a.exportHistory("aged", RunHistory.Query.ALL, kept::add);
        assertThat(kept).extracting(FireEntry::node).containsOnly("node-a", "old");
        assertThat(kept).filteredOn(e -> e.node().equals("old")).hasSize(20);
    }

    @Test
    void pagesByCursorWalkTheHistoryOnceWhileNewEntriesArriveAndQueriesFilter() {
        JobGuard a = node("node-a");
        String key = historyKey("paged");
        long base = now().toEpochMilli() - 10_000_000L;
        // 1,200 entries, more than two chunks: every 10th FAILED, nodes alternate
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            values.add(entry(base + i * 1_000L, i, i % 10 == 0 ? "FAILED" : "RAN", "n" + (i % 2)));
        }
        for (int from = 0; from < values.size(); from += 400) {
            List<String> args = new ArrayList<>(List.of("LPUSH", key));
            args.addAll(values.subList(from, from + 400));
            redis.call(args.toArray(String[]::new));
        }
        List<FireEntry> walked = new ArrayList<>();
        String cursor = null;
        int pushed = 0;
        do {
            RunHistory.Page page = a.history("paged", RunHistory.Query.ALL, cursor, 70);
            walked.addAll(page.entries());
            cursor = page.next();
            // new entries at the head between pages: they push the cursor's entry towards the tail
            for (int k = 0; k < 7; k++) {
                redis.call("LPUSH", key, entry(base + 5_000_000L + pushed * 1_000L, 5_000 + pushed, "RAN", "late"));
                pushed++;
            }
        } while (cursor != null);
        assertThat(walked).hasSize(1_200);
        assertThat(walked).extracting(FireEntry::fencingToken).doesNotHaveDuplicates()
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 1_200).map(i -> 1_199 - i).boxed()
                        .toList());

        Instant from = Instant.ofEpochMilli(base + 100_000L);
        Instant to = Instant.ofEpochMilli(base + 300_000L);
        RunHistory.Query failedOnN0 = new RunHistory.Query(from, to, Set.of("FAILED"), "n0");
        List<FireEntry> found = new ArrayList<>();
        cursor = null;
        do {
            RunHistory.Page page = a.history("paged", failedOnN0, cursor, 3);
            assertThat(page.entries()).hasSizeLessThanOrEqualTo(3);
            found.addAll(page.entries());
            cursor = page.next();
        } while (cursor != null);
        // fire times base+100s .. base+299s: i in 100..299, FAILED every 10th (all even, so on n0): 20 entries
        assertThat(found).hasSize(20).allSatisfy(e -> {
            assertThat(e.outcome()).isEqualTo("FAILED");
            assertThat(e.node()).isEqualTo("n0");
            assertThat(e.nominalFireTime()).isBetween(from, to.minusMillis(1));
        });
        assertThat(found.get(0).fencingToken()).isEqualTo(290);
        assertThatThrownBy(() -> a.history("paged", RunHistory.Query.ALL, "not-a-cursor", 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a history cursor");
    }

    /** An entry as run-release.lua writes it for a first attempt (the lease value after the outcome). */
    static String entry(long fireTime, long token, String outcome, String node) {
        return "o|" + outcome + "|5|jg1|tok-" + token + "|" + fireTime + "|" + (fireTime + 3) + "|" + token + "|" + node;
    }

    @Test
    void bothExportFormatsWriteOneLinePerEntryWithTheSameColumns() {
        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("exported", Duration.ofSeconds(10)).build();
        Instant t = now();
        assertThat(a.run(job, t, () -> { })).isEqualTo(RunOutcome.RAN);
        assertThatThrownBy(() -> a.run(job, t.plusSeconds(1), () -> {
            throw new IllegalArgumentException("=bad, \"quoted\"");
        })).isInstanceOf(IllegalArgumentException.class);
        StringWriter csv = new StringWriter();
        csv.write(HistoryFormat.CSV.header());
        a.exportHistory("exported", RunHistory.Query.ALL, HistoryFormat.CSV.writingTo("exported", csv));
        String[] lines = csv.toString().split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).isEqualTo("job,fireTime,outcome,attempt,node,start,end,durationMs,fencingToken,"
                + "failureClass,failureMessage");
        assertThat(lines[1]).startsWith("exported," + t.plusSeconds(1) + ",FAILED,1,node-a,")
                .endsWith(",java.lang.IllegalArgumentException,\"'=bad, \"\"quoted\"\"\"");
        assertThat(lines[2]).startsWith("exported," + t + ",RAN,1,node-a,").endsWith(",,");
        StringWriter ndjson = new StringWriter();
        a.exportHistory("exported", new RunHistory.Query(null, null, Set.of("FAILED"), null),
                HistoryFormat.NDJSON.writingTo("exported", ndjson));
        assertThat(ndjson.toString()).startsWith("{\"job\":\"exported\",\"fireTime\":\"" + t.plusSeconds(1) + "\"")
                .contains("\"failureMessage\":\"=bad, \\\"quoted\\\"\"}").endsWith("}\n")
                .hasLineCount(1);
    }

    @Test
    void aForeignValueAtTheHistoryKeyNeverFailsAFiringAndIsNamedInAWarn() {
        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("foreign", Duration.ofSeconds(10)).build();
        String key = historyKey("foreign");
        Logger logger = (Logger) LoggerFactory.getLogger("io.jobguard");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            redis.call("SET", key, "not a list");
            Instant t = now();
            assertThat(a.run(job, t, () -> { })).isEqualTo(RunOutcome.RAN);
            assertThat(a.history("foreign", RunHistory.Query.ALL, null, 10).entries()).isEmpty();
            assertThat(redis.call("GET", key)).isEqualTo("not a list");
            redis.call("DEL", key);
            redis.call("LPUSH", key, "garbage that job-guard did not write");
            assertThat(a.run(job, t.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.RAN);
            assertThat(a.history("foreign", RunHistory.Query.ALL, null, 10).entries())
                    .extracting(FireEntry::nominalFireTime).containsExactly(t.plusSeconds(1));
        } finally {
            logger.detachAppender(lines);
        }
        List<String> warnings = lines.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(key)).toList();
        assertThat(warnings).anyMatch(m -> m.contains("not a list"))
                .anyMatch(m -> m.contains("did not write") && m.contains("garbage"))
                .anyMatch(m -> m.contains("released the run lease"));
    }

    @Test
    void theHistoryKeyIsInTheJobsSlotAndAfterADataLossTheHistoryBeginsAgainWithHistoryLost() {
        KeySchema keys = new KeySchema(PREFIX);
        JobId id = new JobId(NAMESPACE, "slot");
        int slot = SlotHash.getSlot(keys.of(id, JobKey.RUN_LEASE));
        assertThat(keys.runRelease(id)).allSatisfy(k -> assertThat(SlotHash.getSlot(k)).as(k).isEqualTo(slot));
        assertThat(SlotHash.getSlot(keys.of(id, JobKey.HISTORY))).isEqualTo(slot);

        JobGuard a = node("node-a");
        JobOptions job = JobOptions.builder("lost", Duration.ofSeconds(10)).build();
        Instant t = now();
        assertThat(a.run(job, t, () -> { })).isEqualTo(RunOutcome.RAN);
        redis.flushAll();
        assertThat(a.run(job, t.plusSeconds(1), () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        Set<String> outcomes = new HashSet<>();
        a.exportHistory("lost", RunHistory.Query.ALL, e -> outcomes.add(e.outcome()));
        assertThat(outcomes).containsExactly("HISTORY_LOST");
    }
}
