package io.jobguard.benchmarks;

import io.jobguard.benchmarks.CapacityBenchmark.Level;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link CapacityBenchmark} writes and prints from its levels: every level ({@code <name>.csv}), each contender at
 * its highest granted firings per second with the ratios to job-guard ({@code <name>-summary.csv}), and the firings
 * per second projected for M Redis Cluster masters ({@code <name>-projection.csv}).
 */
final class CapacityReport {

    private static final int[] PROJECTED_MASTERS = {1, 3, 6, 12};

    private CapacityReport() {
    }

    /** The summary rows: each contender at its highest granted firings per second, per target. */
    static List<Level> saturation(List<Level> levels) {
        Map<String, Level> best = new LinkedHashMap<>();
        for (Level l : levels) {
            best.merge(l.redis() + "/" + l.nodes() + "/" + l.contender(), l,
                    (a, b) -> b.grantedPerSecond() > a.grantedPerSecond() ? b : a);
        }
        return new ArrayList<>(best.values());
    }

    private static Level find(List<Level> rows, String redis, int nodes, String contender) {
        return rows.stream().filter(r -> r.redis().equals(redis) && r.nodes() == nodes && r.contender().equals(contender))
                .findFirst().orElse(null);
    }

    /**
     * Writes the three CSV files and prints the summary, the ratios and the projection.
     *
     * @param out    the output directory
     * @param levels every row measured
     * @throws IOException if a file cannot be written
     */
    static void write(Path out, String name, List<Level> levels) throws IOException {
        List<Level> summary = saturation(levels);
        List<String> csv = new ArrayList<>(List.of(CapacityBenchmark.HEADER));
        levels.forEach(l -> csv.add(l.csv()));
        List<String> summaryCsv = new ArrayList<>(List.of(CapacityBenchmark.SUMMARY_HEADER));
        System.out.println();
        System.out.println("at saturation (each contender's level with the most granted firings per second):");
        for (Level l : summary) {
            Level jobGuard = find(summary, l.redis(), l.nodes(), CapacityBenchmark.JOB_GUARD);
            summaryCsv.add(String.format(Locale.ROOT, "%s,%s,%dx%d,%d,%.0f,%.0f,%.1f,%.1f,%.2f,%.2f,%.2f,%.0f,%.2fx",
                    l.redis(), l.contender(), l.nodes(), l.jobs(), l.threadsPerNode(), l.grantedPerSecond(),
                    l.decisionsPerSecond(), l.redisCpuPct(), l.clientCpuPct(), l.redisUsecPerFiring(),
                    l.redisCallsPerFiring(), l.clientUsecPerFiring(),
                    l.firingsPerSecondAtOneCore(),
                    l.firingsPerSecondAtOneCore() / jobGuard.firingsPerSecondAtOneCore()));
            System.out.println("  " + l + String.format(Locale.ROOT, "  -> %,.0f firings/s at one Redis core",
                    l.firingsPerSecondAtOneCore()));
        }
        System.out.println("ratios, job-guard / peer (granted firings per second measured; at one Redis core):");
        for (Level l : summary) {
            if (!l.contender().equals(CapacityBenchmark.JOB_GUARD)) {
                Level jobGuard = find(summary, l.redis(), l.nodes(), CapacityBenchmark.JOB_GUARD);
                System.out.printf(Locale.ROOT, "  %-10s job-guard / %-9s %.2fx measured, %.2fx at one Redis core%n", l.redis(),
                        l.contender(), jobGuard.grantedPerSecond() / l.grantedPerSecond(),
                        jobGuard.firingsPerSecondAtOneCore() / l.firingsPerSecondAtOneCore());
            }
        }
        List<String> projection = new ArrayList<>(List.of(CapacityBenchmark.PROJECTION_HEADER));
        System.out.println("projection for M masters, each master one core at 100 % ("
                + CapacityBenchmark.PROJECTION_HEADER + "):");
        for (String contender : CapacityBenchmark.CONTENDERS) {
            for (Level l : summary) {
                if (l.contender().equals(contender) && l.redis().startsWith("cluster")) {
                    // M x one master core at the basis's Redis CPU per firing, the jobs spread evenly; and the basis's
                    // own M with its measured shares, where the busiest master saturates first
                    StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%s,%s,%.2f,%.3f", contender, l.redis(),
                            l.redisUsecPerFiring(), l.busiestShare()));
                    for (int m : PROJECTED_MASTERS) {
                        row.append(String.format(Locale.ROOT, ",%.0f", m * l.firingsPerSecondAtOneCore()));
                    }
                    row.append(String.format(Locale.ROOT, ",%.0f", 1e6 / (l.redisUsecPerFiring() * l.busiestShare())));
                    projection.add(row.toString());
                }
            }
        }
        projection.subList(1, projection.size()).forEach(p -> System.out.println("  " + p));
        Files.createDirectories(out);
        Files.write(out.resolve(name + ".csv"), csv);
        Files.write(out.resolve(name + "-summary.csv"), summaryCsv);
        Files.write(out.resolve(name + "-projection.csv"), projection);
        System.out.println("wrote " + out.resolve(name + ".csv") + ", " + name + "-summary.csv and " + name
                + "-projection.csv");
    }
}
