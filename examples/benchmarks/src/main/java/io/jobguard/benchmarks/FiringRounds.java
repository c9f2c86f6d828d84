package io.jobguard.benchmarks;

import io.jobguard.benchmarks.FiringContenders.Contender;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What both modes of {@link FiringBenchmark} do with a round's latencies: the rows, the medians, the ratios. */
final class FiringRounds {

    private FiringRounds() {
    }

    /** One contender's firings in one round: each firing's whole latency, and the part it reports. */
    record Timed(long[] whole, long[] part) {
    }

    /**
     * Fires every contender up to 500 times, not recorded (JIT, connections, script caches).
     *
     * @return each contender's next firing index (a contender's firings never repeat an index)
     */
    static Map<String, Integer> warmUp(Map<String, Contender> contenders, int firings) throws Exception {
        Map<String, Integer> next = new HashMap<>();
        int warm = Math.min(firings, 500);
        for (Map.Entry<String, Contender> c : contenders.entrySet()) {
            long[][] part = {new long[warm]};
            for (int i = 0; i < warm; i++) {
                c.getValue().fire(i, part);
            }
            next.put(c.getKey(), warm);
        }
        return next;
    }

    /**
     * Times {@code n} firings of one contender from index {@code first} on, each after a pause of {@code gapMs}
     * (none if 0) and, if {@code settle}, followed untimed by {@link Contender#settle()}.
     */
    static Timed time(Contender contender, int first, int n, long gapMs, boolean settle) throws Exception {
        long[] whole = new long[n];
        long[][] part = {new long[first + n]};
        for (int i = 0; i < n; i++) {
            if (gapMs > 0) {
                Thread.sleep(gapMs);
            }
            long t0 = System.nanoTime();
            contender.fire(first + i, part);
            whole[i] = System.nanoTime() - t0;
            if (settle) {
                contender.settle();
            }
        }
        return new Timed(whole, Arrays.copyOfRange(part[0], first, first + n));
    }

    /** The rows of one contender's round: its whole latency with its Redis CPU, and its part, if it reports one. */
    static void rows(List<String> csv, Map<String, List<double[]>> byContender, Map<String, long[]> lastRound,
                     String name, int round, Timed timed, String cpu) {
        row(csv, byContender, lastRound, name, round, timed.whole(), cpu);
        String partName = partName(name);
        if (partName != null) {
            row(csv, byContender, lastRound, partName, round, timed.part(), "");
        }
    }

    /** Calls per firing of each command in an {@code INFO commandstats} reply, except INFO and CONFIG. */
    static String commandsPerFiring(String commandstats, int firings) {
        StringBuilder out = new StringBuilder();
        for (String line : commandstats.split("\r?\n")) {
            if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:") && !line.startsWith("cmdstat_config")) {
                String command = line.substring("cmdstat_".length(), line.indexOf(':'));
                long calls = Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*$", "$1"));
                out.append(String.format("%s %.2f  ", command, calls / (double) firings));
            }
        }
        return out.toString().trim();
    }

    /** The part row a contender reports besides its whole latency. */
    private static String partName(String contender) {
        return contender.equals("jobguard-scheduler-thread") ? "jobguard-acquire" : null;
    }

    private static void row(List<String> csv, Map<String, List<double[]>> byContender, Map<String, long[]> lastRound,
                            String name, int round, long[] nanos, String cpu) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2] / 1000.0;
        double p99 = sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] / 1000.0;
        csv.add(String.format("%s,%d,%d,%.1f,%.1f,%s", name, round, nanos.length, median, p99, cpu));
        byContender.computeIfAbsent(name, k -> new ArrayList<>())
                .add(new double[] {median, p99, cpu.isEmpty() ? Double.NaN : Double.parseDouble(cpu)});
        lastRound.put(name, nanos);
    }

    /**
     * Prints each contender's medians over the rounds (latency, p99, Redis CPU if measured) under a header, and
     * returns them as CSV rows {@code <prefix>contender,rounds,median_us,p99_us,redis_usec_per_firing}.
     */
    static List<String> medians(Map<String, List<double[]>> byContender, String prefix) {
        System.out.printf("%-28s %10s %10s %12s%n", "contender", "median_us", "p99_us", "redis_us/f");
        List<String> csv = new ArrayList<>();
        byContender.forEach((name, rows) -> {
            double cpu = median(rows, 2);
            String cpuText = Double.isNaN(cpu) ? "" : String.format("%.2f", cpu);
            System.out.printf("%-28s %10.1f %10.1f %12s%n", name, median(rows, 0), median(rows, 1), cpuText);
            csv.add(String.format("%s%s,%d,%.1f,%.1f,%s", prefix, name, rows.size(), median(rows, 0), median(rows, 1), cpuText));
        });
        return csv;
    }

    /** The median over rounds of {@code a / b} in one column: printed, and added as a CSV row. */
    static void ratio(List<String> csv, Map<String, List<double[]>> byContender, String label, String a,
                              String b, int column, String target) {
        List<double[]> as = byContender.get(a);
        List<double[]> bs = byContender.get(b);
        double[] perRound = new double[as.size()];
        for (int round = 0; round < as.size(); round++) {
            perRound[round] = as.get(round)[column] / bs.get(round)[column];
        }
        Arrays.sort(perRound);
        double value = perRound[perRound.length / 2];
        System.out.printf("  %-72s %.2fx%s%n", label, value, target.isEmpty() ? "" : " (target " + target + ")");
        csv.add(String.format("%s,%s,%.2fx", label, target, value));
    }

    static double median(List<double[]> rows, int column) {
        double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return values[values.length / 2];
    }

    /** The contenders' order in one round: rotated by the round, reversed every other round. */
    static List<String> roundOrder(List<String> order, int round) {
        List<String> thisOrder = new ArrayList<>(order);
        Collections.rotate(thisOrder, round);
        if (round % 2 == 0) {
            Collections.reverse(thisOrder);
        }
        return thisOrder;
    }
}
