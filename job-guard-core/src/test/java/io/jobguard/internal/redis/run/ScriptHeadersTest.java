package io.jobguard.internal.redis.run;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.internal.redis.KeySchema.Layout1Key;
import io.jobguard.internal.redis.loss.LossWindows;
import io.jobguard.store.AcquireMode;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every Lua script of {@code io/jobguard/redis} names its inputs, and its header says how the script reads them.
 * This test guarantees, for every script file next to {@code prelude.lua}:
 * <ul>
 *   <li>its header (the leading comment lines) lists each KEYS and ARGV entry on a line of its own in one format,
 *       {@code -- KEYS[n] name: text} or {@code -- ARGV[n] name: text}, numbered from 1 without gaps; a variadic tail
 *       is {@code -- ARGV[n..] name: text}, last. No other header line starts with {@code -- KEYS[} or
 *       {@code -- ARGV[};</li>
 *   <li>its first code lines (the unpacking block) read exactly those entries, in that order, into locals of those
 *       names: {@code local name = KEYS[n]}, {@code local name = ARGV[n]}, and for a variadic tail
 *       {@code local name = n} (the position of its first entry);</li>
 *   <li>no code after the block reads KEYS, or ARGV at a literal position, each named local is used, and only a
 *       script with a variadic tail reads ARGV at all after the block (its tail's entries, at computed positions).</li>
 * </ul>
 * And, where the Java side builds a script's inputs in one place that runs without Redis, that it builds them as the
 * header lists them: {@code run-acquire.lua}'s ARGV by {@link RunAcquireArguments#argv()} (count, and each position by
 * the value the header's name stands for), and the KEYS of {@code run-acquire.lua}, {@code run-release.lua} and
 * {@code layout-migrate.lua} by {@link KeySchema} (count, and each position by the key the name stands for).
 *
 * <p>The other scripts' KEYS and ARGV are built where their callers run them against Redis (RedisRunReleases,
 * RedisFireHistory, RedisLeaseStore, SchedulePublications, FleetLeads, BatchScripts, RedisShedLock /
 * JobGuardLockProvider, RedisFence): they cannot be checked without Redis here, and the integration tests that run
 * those calls on a real Redis check them.
 */
class ScriptHeadersTest {

    private static final String FOLDER = "/io/jobguard/redis/";
    private static final Pattern ENTRY = Pattern.compile("^-- (KEYS|ARGV)\\[(\\d+)(\\.\\.)?] ([A-Za-z_][A-Za-z0-9_]*): \\S.*$");
    private static final Pattern UNPACK = Pattern.compile("^local ([A-Za-z_][A-Za-z0-9_]*) = (?:(KEYS|ARGV)\\[(\\d+)]|(\\d+))$");
    private static final Pattern LITERAL_INPUT = Pattern.compile("\\bKEYS\\s*\\[|\\bARGV\\s*\\[\\s*\\d+\\s*]");
    private static final Pattern ANY_ARGV = Pattern.compile("\\bARGV\\s*\\[");

    private static final JobId JOB = new JobId("ns", "job");
    private static final Instant FIRE_TIME = Instant.ofEpochMilli(1_700_000_000_000L);
    private static final RunLeaseRequest REQUEST = new RunLeaseRequest(JOB, FIRE_TIME, "owner-1", "node-1",
            Duration.ofSeconds(30), Duration.ofSeconds(60), 25, Duration.ofSeconds(20));

    /**
     * One KEYS or ARGV entry, as a header line lists it or the unpacking block reads it.
     *
     * @param kind     {@code KEYS} or {@code ARGV}
     * @param index    its 1-based position (of the first entry, for a variadic tail)
     * @param variadic whether it stands for every entry from {@code index} on
     * @param name     the local it is unpacked into
     */
    record Entry(String kind, int index, boolean variadic, String name) {
    }

    /**
     * A script file read as this test reads it.
     *
     * @param name   the file name without {@code .lua}
     * @param header the entries its header lists, KEYS then ARGV
     * @param block  the entries its unpacking block reads, in its order
     * @param after  the code lines after the unpacking block (comment-only lines left out)
     */
    record Script(String name, List<Entry> header, List<Entry> block, List<String> after) {

        static Script read(String name) {
            List<String> lines = text(name).lines().toList();
            int i = 0;
            List<Entry> header = new ArrayList<>();
            for (; i < lines.size() && lines.get(i).startsWith("--"); i++) {
                String line = lines.get(i);
                if (line.startsWith("-- KEYS[") || line.startsWith("-- ARGV[")) {
                    Matcher m = ENTRY.matcher(line);
                    if (!m.matches()) {
                        fail(name + ".lua, line " + (i + 1) + ": not '-- KEYS[n] name: text' or '-- ARGV[n] name: text': "
                                + line);
                    }
                    header.add(new Entry(m.group(1), Integer.parseInt(m.group(2)), m.group(3) != null, m.group(4)));
                }
            }
            while (i < lines.size() && isCommentOrBlank(lines.get(i))) {
                i++;
            }
            List<Entry> block = new ArrayList<>();
            for (; i < lines.size(); i++) {
                Matcher m = UNPACK.matcher(lines.get(i));
                if (!m.matches()) {
                    break;
                }
                block.add(m.group(2) != null
                        ? new Entry(m.group(2), Integer.parseInt(m.group(3)), false, m.group(1))
                        : new Entry("ARGV", Integer.parseInt(m.group(4)), true, m.group(1)));
            }
            List<String> after = lines.subList(i, lines.size()).stream().filter(l -> !isCommentOrBlank(l)).toList();
            return new Script(name, header, block, after);
        }

        List<Entry> entries(String kind) {
            return header.stream().filter(e -> e.kind().equals(kind)).toList();
        }

        /** The 0-based position in the Java list of the entry the header names so. */
        int position(String kind, String local) {
            return entries(kind).stream().filter(e -> e.name().equals(local)).mapToInt(e -> e.index() - 1).findFirst()
                    .orElseThrow(() -> new AssertionError(name + ".lua lists no " + kind + " entry " + local));
        }

        private static boolean isCommentOrBlank(String line) {
            String stripped = line.strip();
            return stripped.isEmpty() || stripped.startsWith("--");
        }
    }

    static Stream<String> scripts() {
        URL prelude = ScriptHeadersTest.class.getResource(FOLDER + "prelude.lua");
        assertThat(prelude).as("prelude.lua on the classpath").isNotNull();
        try (Stream<Path> files = Files.list(Path.of(prelude.toURI()).getParent())) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".lua"))
                    .map(n -> n.substring(0, n.length() - ".lua".length())).filter(n -> !n.equals("prelude")).sorted()
                    .toList();
            assertThat(names).as("the scripts").contains("run-acquire", "run-release", "batch-acquire", "shedlock-lock")
                    .hasSizeGreaterThanOrEqualTo(16);
            return names.stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0}.lua")
    @MethodSource("scripts")
    void theHeaderListsEveryInputAndTheUnpackingBlockReadsThemAsListed(String name) {
        Script script = Script.read(name);
        for (String kind : List.of("KEYS", "ARGV")) {
            List<Entry> entries = script.entries(kind);
            for (int i = 0; i < entries.size(); i++) {
                assertThat(entries.get(i).index()).as(name + ".lua's header: " + kind + " numbered from 1 without gaps")
                        .isEqualTo(i + 1);
                assertThat(!entries.get(i).variadic() || i == entries.size() - 1)
                        .as(name + ".lua's header: only the last " + kind + " entry may be a variadic tail").isTrue();
            }
        }
        assertThat(script.entries("KEYS")).as(name + ".lua's header lists its KEYS").isNotEmpty();
        assertThat(script.header().stream().map(Entry::name).distinct().count())
                .as(name + ".lua's header: one name per entry").isEqualTo(script.header().size());
        assertThat(script.block()).as(name + ".lua: the unpacking block reads what the header lists, in its order")
                .containsExactlyElementsOf(script.header());

        boolean variadic = script.header().stream().anyMatch(Entry::variadic);
        for (String line : script.after()) {
            assertThat(LITERAL_INPUT.matcher(line).find())
                    .as(name + ".lua reads KEYS or ARGV at a literal position after its unpacking block: " + line).isFalse();
            assertThat(!variadic && ANY_ARGV.matcher(line).find())
                    .as(name + ".lua reads ARGV after its unpacking block, without a variadic tail: " + line).isFalse();
        }
        String code = String.join("\n", script.after());
        for (Entry entry : script.block()) {
            assertThat(Pattern.compile("\\b" + entry.name() + "\\b").matcher(code).find())
                    .as(name + ".lua unpacks " + entry.kind() + "[" + entry.index() + "] into " + entry.name()
                            + " and never uses it").isTrue();
        }
    }

    @Test
    void runAcquireArgumentsBuildWhatTheHeaderListsPositionByPosition() {
        Script script = Script.read("run-acquire");
        RunAcquireArguments regular = new RunAcquireArguments(REQUEST,
                AcquireMode.regular(FIRE_TIME.minusSeconds(60), AcquireMode.Delivery.RETRY, 3), "1690000000000",
                new LossWindows.Window(1_695_000_000_000L, 45_000), "77", "1699999880000", true);
        Map<String, String> common = new LinkedHashMap<>();
        common.put("ownerToken", "owner-1");
        common.put("nodeId", "node-1");
        common.put("fireTime", "1700000000000");
        common.put("leaseMs", "30000");
        common.put("markerTtlMs", "90000");
        common.put("lastEpoch", "1690000000000");
        common.put("lossWindowMs", "45000");
        common.put("highestToken", "77");
        common.put("configuredWindowMs", "20000");
        common.put("handledFireTime", "1699999880000");
        common.put("historySize", "25");
        Map<String, String> expected = new LinkedHashMap<>(common);
        expected.put("previousFireTime", "1699999940000");
        expected.put("delivery", "least:3");
        expected.put("attempt", "");
        expected.put("lossAnchor", "1695000000000");
        expected.put("waiting", "1");
        expected.put("passedOverLost", "");
        expected.put("passedOverMissed", "");
        assertInputs(script, "ARGV", regular.argv(), expected);

        RunAcquireArguments catchUp = new RunAcquireArguments(REQUEST,
                AcquireMode.catchUp(FIRE_TIME.minusSeconds(180),
                        List.of(FIRE_TIME.minusSeconds(170), FIRE_TIME.minusSeconds(160)), List.of(FIRE_TIME.minusSeconds(150))),
                "1690000000000", new LossWindows.Window(-1, 45_000), "77", "1699999880000", false);
        expected = new LinkedHashMap<>(common);
        expected.put("previousFireTime", "");
        expected.put("delivery", "");
        expected.put("attempt", "catchup:1699999820000");
        expected.put("lossAnchor", "");
        expected.put("waiting", "");
        expected.put("passedOverLost", "1699999830000,1699999840000");
        expected.put("passedOverMissed", "1699999850000");
        assertInputs(script, "ARGV", catchUp.argv(), expected);
    }

    @Test
    void keySchemaBuildsTheKeysTheHeadersListPositionByPosition() {
        KeySchema keys = new KeySchema("jg");
        Map<String, String> acquire = new LinkedHashMap<>();
        acquire.put("leaseKey", keys.of(JOB, JobKey.RUN_LEASE));
        acquire.put("markerKey", keys.fireMarker(JOB, FIRE_TIME));
        acquire.put("stateKey", keys.of(JOB, JobKey.STATE));
        acquire.put("cooldownKey", keys.of(JOB, JobKey.COOLDOWN));
        acquire.put("waitersKey", keys.of(JOB, JobKey.WAITERS));
        acquire.put("layout1EpochKey", keys.layout1(JOB, Layout1Key.EPOCH));
        acquire.put("layout1CounterKey", keys.layout1(JOB, Layout1Key.FENCE));
        acquire.put("layout1RecordKey", keys.layout1(JOB, Layout1Key.RECORD));
        acquire.put("historyKey", keys.of(JOB, JobKey.HISTORY));
        assertInputs(Script.read("run-acquire"), "KEYS", keys.runAcquire(JOB, FIRE_TIME), acquire);

        Map<String, String> release = new LinkedHashMap<>();
        release.put("leaseKey", keys.of(JOB, JobKey.RUN_LEASE));
        release.put("waitersKey", keys.of(JOB, JobKey.WAITERS));
        release.put("stateKey", keys.of(JOB, JobKey.STATE));
        release.put("historyKey", keys.of(JOB, JobKey.HISTORY));
        release.put("cooldownKey", keys.of(JOB, JobKey.COOLDOWN));
        assertInputs(Script.read("run-release"), "KEYS", keys.runRelease(JOB), release);

        Map<String, String> migrate = new LinkedHashMap<>();
        migrate.put("stateKey", keys.of(JOB, JobKey.STATE));
        migrate.put("layout1EpochKey", keys.layout1(JOB, Layout1Key.EPOCH));
        migrate.put("layout1CounterKey", keys.layout1(JOB, Layout1Key.FENCE));
        migrate.put("layout1RecordKey", keys.layout1(JOB, Layout1Key.RECORD));
        migrate.put("layout1PausedKey", keys.layout1(JOB, Layout1Key.PAUSED));
        assertInputs(Script.read("layout-migrate"), "KEYS",
                keys.layout1Migration(keys.layout1(JOB, Layout1Key.RECORD), Layout1Key.RECORD), migrate);
    }

    /**
     * The header names exactly the entries {@code expected} knows, the Java side builds one value per entry, and each
     * named entry holds the value its name stands for.
     */
    private static void assertInputs(Script script, String kind, List<String> built, Map<String, String> expected) {
        assertThat(script.entries(kind).stream().map(Entry::name))
                .as(script.name() + ".lua's header names every " + kind + " entry the test knows, and no other")
                .containsExactlyInAnyOrderElementsOf(expected.keySet());
        assertThat(built).as(script.name() + ".lua: the Java side builds as many " + kind + " as the header lists")
                .hasSize(script.entries(kind).size());
        expected.forEach((local, value) -> assertThat(built.get(script.position(kind, local)))
                .as(script.name() + ".lua's " + kind + " entry " + local + " (position " + (script.position(kind, local) + 1)
                        + ") as the Java side builds it")
                .isEqualTo(value));
    }

    private static String text(String name) {
        try (InputStream in = ScriptHeadersTest.class.getResourceAsStream(FOLDER + name + ".lua")) {
            assertThat(in).as(name + ".lua").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
