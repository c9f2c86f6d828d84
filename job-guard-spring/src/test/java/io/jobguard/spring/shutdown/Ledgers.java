package io.jobguard.spring.shutdown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The independent check of a rolling restart: reads the nodes' append-only ledgers ({@link RollingNodeApp}) and
 * compares the runs they recorded with the schedule's grid, knowing nothing of job-guard's own records.
 */
final class Ledgers {

    /** One run as its node recorded it when the body started. */
    record Start(long fireTime, String node, long startedAt) {
        long lateMillis() {
            return startedAt - fireTime;
        }
    }

    private final List<Start> starts = new ArrayList<>();

    private Ledgers() {
    }

    static Ledgers read(List<Path> ledgers) throws IOException {
        Ledgers all = new Ledgers();
        for (Path ledger : ledgers) {
            if (!Files.exists(ledger)) {
                continue;
            }
            for (String line : Files.readAllLines(ledger)) {
                String[] f = line.split(" ");
                if (f.length >= 4 && f[0].equals("START")) {
                    all.starts.add(new Start(Long.parseLong(f[1]), f[2], Long.parseLong(f[3])));
                }
            }
        }
        return all;
    }

    /** The runs started per fire time, over every fire time in any ledger. */
    Map<Long, List<Start>> byFireTime() {
        Map<Long, List<Start>> runs = new TreeMap<>();
        for (Start start : starts) {
            runs.computeIfAbsent(start.fireTime(), t -> new ArrayList<>()).add(start);
        }
        return runs;
    }

    /**
     * What is wrong on the grid {@code from}, {@code from + periodMillis}, ... up to {@code to} (inclusive): a fire
     * time nobody started, one started more than once, one started more than {@code maxLateMillis} after it was due;
     * and, anywhere in the ledgers, a fire time started twice. Empty when every fire time ran once, on time.
     */
    List<String> problems(long from, long to, long periodMillis, long maxLateMillis) {
        List<String> problems = new ArrayList<>();
        Map<Long, List<Start>> runs = byFireTime();
        runs.forEach((t, started) -> {
            if (started.size() > 1) {
                problems.add("fire time " + t + " started " + started.size() + " times: " + started);
            }
        });
        for (long t = from; t <= to; t += periodMillis) {
            List<Start> started = runs.getOrDefault(t, List.of());
            if (started.isEmpty()) {
                problems.add("fire time " + t + " never started");
            } else if (started.get(0).lateMillis() > maxLateMillis) {
                problems.add("fire time " + t + " started " + started.get(0).lateMillis() + " ms late: " + started);
            }
        }
        return problems;
    }

    /** The latest start after its fire time, in milliseconds, on the grid from {@code from} to {@code to}. */
    long maxLateMillis(long from, long to) {
        return starts.stream().filter(s -> s.fireTime() >= from && s.fireTime() <= to).mapToLong(Start::lateMillis)
                .max().orElse(-1);
    }
}
