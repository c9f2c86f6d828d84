package io.jobguard.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** What both modes of {@link FiringBenchmark} do with a round's latencies: the rows, the medians, the ratios. */
final class FiringRounds {

    private FiringRounds() {
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
    static String partName(String contender) {
        return contender.equals("jobguard-scheduler-thread") ? "jobguard-acquire" : null;
    }

    static void row(List<String> csv, Map<String, List<double[]>> byContender, Map<String, long[]> lastRound,
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
