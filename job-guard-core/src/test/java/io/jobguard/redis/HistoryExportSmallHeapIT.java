package io.jobguard.redis;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.KeySchema.JobKey;
import io.jobguard.store.JobId;
import io.jobguard.testing.ChildJvm;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run history of 100,000 entries exported as CSV from a JVM with a 32 MiB heap: the export reads the store a page at
 * a time, so it completes, every entry once, newest first, whatever the history's length. The entries are written
 * straight into the job's list in the release's format (a pipeline of LPUSH), not by 100,000 firings.
 */
@WithRedis
class HistoryExportSmallHeapIT {

    private static final int ENTRIES = 100_000;

    private final RedisServerProcess redis;

    HistoryExportSmallHeapIT(RedisServerProcess redis) {
        this.redis = redis;
    }

    @Test
    void aHundredThousandEntriesExportFromA32MiBHeap(@TempDir Path dir) throws Exception {
        redis.flushAll();
        String key = new KeySchema("jgexport").of(new JobId("big", "every-second"), JobKey.HISTORY);
        long first = System.currentTimeMillis() - ENTRIES * 1_000L;
        for (int from = 0; from < ENTRIES; from += 1_000) {
            List<String> args = new ArrayList<>(List.of("LPUSH", key));
            for (int i = from; i < from + 1_000; i++) {
                args.add(RunHistoryIT.entry(first + i * 1_000L, i + 1, i % 100 == 0 ? "FAILED" : "RAN", "node-" + (i % 3)));
            }
            redis.call(args.toArray(String[]::new));
        }
        assertThat(redis.call("LLEN", key)).isEqualTo((long) ENTRIES);
        Path file = dir.resolve("history.csv");
        long started = System.nanoTime();
        try (ChildJvm child = ChildJvm.start("exporter", List.of("-Xmx32m", "-XX:TieredStopAtLevel=1"),
                HistoryExportChild.class, List.of(redis.host(), Integer.toString(redis.port()), "jgexport", "big",
                        "every-second", file.toString()))) {
            String done = child.await("EXPORTED", Duration.ofMinutes(2));
            assertThat(child.waitForExit(Duration.ofSeconds(30))).as("the exporter exits: %s", child.output()).isTrue();
            System.out.printf("HistoryExportSmallHeapIT: %d entries exported from -Xmx32m in %d ms: %s%n", ENTRIES,
                    Duration.ofNanos(System.nanoTime() - started).toMillis(), done);
        }
        long lines = 0;
        String second = null;
        String last = null;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            assertThat(in.readLine()).startsWith("job,fireTime,outcome");
            String line;
            while ((line = in.readLine()) != null) {
                lines++;
                if (second == null) {
                    second = line;
                }
                last = line;
            }
        }
        assertThat(lines).isEqualTo(ENTRIES);
        assertThat(second).as("newest first: token %d", ENTRIES).endsWith(",5," + ENTRIES + ",,");
        assertThat(last).as("the oldest last").startsWith("every-second,").contains(",FAILED,1,node-0,")
                .endsWith(",5,1,,");
    }
}
