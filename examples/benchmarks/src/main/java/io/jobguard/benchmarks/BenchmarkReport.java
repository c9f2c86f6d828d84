package io.jobguard.benchmarks;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws the benchmark charts and writes the generated tables of {@code docs/benchmarks.md} from the
 * CSV files the benchmarks wrote. Reads only {@code <data>/*.csv}; a missing
 * file fails with its name and the command that produces it, so a chart is never silently stale.
 *
 * <p>Arguments: data directory (default {@code docs/benchmarks/data}), chart directory (default
 * {@code docs/benchmarks}), the markdown file whose {@code <!-- generated:NAME -->} ...
 * {@code <!-- /generated:NAME -->} blocks are replaced (default {@code docs/benchmarks.md}), and optionally
 * {@code capacity}: only the capacity chart and tables (what {@code run-capacity-bench.sh} regenerates after its
 * run, leaving every other chart as it is).
 */
public final class BenchmarkReport {

    private static final String FIRING_LINK = "examples/benchmarks/run-firing-bench.sh --link-delay-ms 0.5";
    private static final Map<String, String> PRODUCERS = Map.ofEntries(
            Map.entry("firing.csv", "examples/benchmarks/run-firing-bench.sh"),
            Map.entry("firing-summary.csv", "examples/benchmarks/run-firing-bench.sh"),
            Map.entry("firing-ratios.csv", "examples/benchmarks/run-firing-bench.sh"),
            Map.entry("firing-latency.csv", "examples/benchmarks/run-firing-bench.sh"),
            Map.entry("firing-link-summary.csv", FIRING_LINK),
            Map.entry("firing-link-ratios.csv", FIRING_LINK),
            Map.entry("firing-link-rtt.csv", FIRING_LINK),
            Map.entry("script-cost.csv", "examples/benchmarks/run-script-cost.sh"),
            Map.entry("batch-n.csv", "examples/benchmarks/run-batch-bench.sh"),
            Map.entry("batch-floors-summary.csv", "examples/benchmarks/run-batch-floors.sh"),
            Map.entry("batch-floors-ratios.csv", "examples/benchmarks/run-batch-floors.sh"),
            Map.entry("batch-masters.csv", "examples/benchmarks/run-batch-masters.sh"),
            Map.entry("slowlog.csv", "examples/benchmarks/run-batch-masters.sh"),
            Map.entry("fleet.csv", "examples/benchmarks/run-fleet-bench.sh"),
            Map.entry("capacity.csv", "examples/benchmarks/run-capacity-bench.sh"),
            Map.entry("capacity-summary.csv", "examples/benchmarks/run-capacity-bench.sh"),
            Map.entry("capacity-projection.csv", "examples/benchmarks/run-capacity-bench.sh"));

    private final Path data;

    private BenchmarkReport(Path data) {
        this.data = data;
    }

    /**
     * Draws every chart and rewrites the generated tables.
     *
     * @param args data directory, chart directory, markdown file, optionally {@code capacity}
     * @throws IOException if a CSV is missing or a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path data = Path.of(args.length > 0 ? args[0] : "docs/benchmarks/data");
        Path charts = Path.of(args.length > 1 ? args[1] : "docs/benchmarks");
        Path markdown = Path.of(args.length > 2 ? args[2] : "docs/benchmarks.md");
        BenchmarkReport report = new BenchmarkReport(data);
        Files.createDirectories(charts);
        if (args.length > 3 && args[3].equals("capacity")) {
            report.save(report.capacity(), charts.resolve("capacity.png"));
            Files.writeString(markdown, report.capacityBlocks(Files.readString(markdown)));
            System.out.println("capacity chart in " + charts + ", capacity tables in " + markdown);
            return;
        }
        report.save(report.batchTimeVsN(), charts.resolve("batch-time-vs-n.png"));
        report.save(report.firingLatency(), charts.resolve("firing-latency.png"));
        report.save(report.firingLink(), charts.resolve("firing-link.png"));
        report.save(report.fleetCpu(), charts.resolve("fleet-redis-cpu.png"));
        report.save(report.batchCpuPerMaster(), charts.resolve("batch-cpu-per-master.png"));
        report.save(report.capacity(), charts.resolve("capacity.png"));
        if (Files.exists(markdown)) {
            String text = Files.readString(markdown);
            text = replaceBlock(text, "firing", report.table("firing-summary.csv"));
            text = replaceBlock(text, "firing-ratios", report.table("firing-ratios.csv"));
            text = replaceBlock(text, "firing-link", report.table("firing-link-summary.csv") + "\n"
                    + report.linkRoundTrip());
            text = replaceBlock(text, "firing-link-ratios", report.table("firing-link-ratios.csv"));
            text = replaceBlock(text, "script-cost", report.table("script-cost.csv"));
            text = replaceBlock(text, "fleet", report.table("fleet.csv") + "\n" + report.fleetProjection());
            text = replaceBlock(text, "batch-masters", report.table("batch-masters.csv"));
            text = replaceBlock(text, "batch-n", report.table("batch-n.csv"));
            text = replaceBlock(text, "batch-floors", report.table("batch-floors-summary.csv"));
            text = replaceBlock(text, "batch-floor-ratios", report.table("batch-floors-ratios.csv"));
            text = replaceBlock(text, "slowlog", report.table("slowlog.csv"));
            text = report.capacityBlocks(text);
            Files.writeString(markdown, text);
        }
        System.out.println("charts in " + charts + ", tables in " + markdown);
    }

    /** Rows of one CSV as column-name to value maps, in file order. */
    List<Map<String, String>> rows(String file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(data.resolve(file));
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(data.resolve(file) + " is missing: run " + PRODUCERS.get(file)
                    + " (or bash examples/run-benchmarks.sh) first");
        }
        String[] header = lines.get(0).split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] values = line.split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], i < values.length ? values[i] : "");
            }
            rows.add(row);
        }
        return rows;
    }

    XYChart batchTimeVsN() throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title("Batch acquire + release time vs N (log-log)")
                .xAxisTitle("keys per batch (N)").yAxisTitle("median ms per batch").build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideNW);
        Map<String, List<double[]>> byContender = new LinkedHashMap<>();
        for (Map<String, String> row : rows("batch-n.csv")) {
            byContender.computeIfAbsent(row.get("contender"), c -> new ArrayList<>())
                    .add(new double[] {number(row, "n"), number(row, "median_ms")});
        }
        byContender.forEach((contender, points) -> chart.addSeries(contender,
                points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray()));
        return chart;
    }

    /** The firing latency distribution per contender as a CDF: x = latency, y = share of firings at most x. */
    XYChart firingLatency() throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title("One guarded firing: latency distribution (last round)")
                .xAxisTitle("latency, µs (log)").yAxisTitle("share of firings at or below").build();
        chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideSE).setMarkerSize(0);
        Map<String, List<Double>> byContender = new LinkedHashMap<>();
        for (Map<String, String> row : rows("firing-latency.csv")) {
            byContender.computeIfAbsent(row.get("contender"), c -> new ArrayList<>()).add(number(row, "latency_us"));
        }
        byContender.forEach((contender, values) -> {
            double[] x = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = (i + 1.0) / x.length;
            }
            chart.addSeries(contender, x, y).setMarker(SeriesMarkers.NONE);
        });
        return chart;
    }

    /** Median firing time per contender over the delayed link, one bar per pacing. */
    CategoryChart firingLink() throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(560)
                .title("One guarded firing across a delayed link: median per contender")
                .xAxisTitle("contender").yAxisTitle("median µs per firing").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.getStyler().setYAxisMin(0.0);
        Map<String, Map<String, Double>> byPacing = new LinkedHashMap<>();
        List<String> contenders = new ArrayList<>();
        for (Map<String, String> row : rows("firing-link-summary.csv")) {
            if (!contenders.contains(row.get("contender"))) {
                contenders.add(row.get("contender"));
            }
            byPacing.computeIfAbsent(row.get("pacing"), p -> new LinkedHashMap<>()).put(row.get("contender"), number(row, "median_us"));
        }
        byPacing.forEach((pacing, medians) -> chart.addSeries(pacing, contenders,
                contenders.stream().map(c -> medians.getOrDefault(c, 0.0)).toList()));
        return chart;
    }

    /** One sentence under the link table: the round trip the link was set to add and what it added. */
    String linkRoundTrip() throws IOException {
        Map<String, Map<String, String>> byPath = new LinkedHashMap<>();
        for (Map<String, String> row : rows("firing-link-rtt.csv")) {
            byPath.put(row.get("path"), row);
        }
        Map<String, String> link = byPath.get("link");
        Map<String, String> direct = byPath.get("direct");
        return String.format(Locale.ROOT, "The link delays each request %s µs and each reply %s µs. One `PING` "
                        + "(median of %s) took %s µs directly and %s µs through the link: the link added %.0f µs "
                        + "per round trip.%n",
                link.get("delay_to_redis_us"), link.get("delay_to_client_us"), link.get("pings"), direct.get("median_us"),
                link.get("median_us"), number(link, "median_us") - number(direct, "median_us"));
    }

    XYChart fleetCpu() throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title("Redis CPU per firing decision vs fleet size")
                .xAxisTitle("nodes x jobs (log)").yAxisTitle("Redis CPU µs per decision").build();
        chart.getStyler().setXAxisLogarithmic(true).setLegendVisible(false);
        chart.getStyler().setYAxisMin(0.0);
        List<Map<String, String>> rows = rows("fleet.csv");
        chart.addSeries("job-guard", rows.stream().mapToDouble(r -> number(r, "nodes") * number(r, "jobs")).toArray(),
                rows.stream().mapToDouble(r -> number(r, "redis_usec_per_decision")).toArray());
        return chart;
    }

    CategoryChart batchCpuPerMaster() throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(560)
                .title("Batch N = 3,000: each master's share of the Redis CPU").xAxisTitle("layout")
                .yAxisTitle("share of the workload's Redis CPU").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setYAxisMax(1.0);
        chart.getStyler().setYAxisMin(0.0);
        Map<String, Map<String, Double>> byMaster = new TreeMap<>();
        List<String> layouts = new ArrayList<>();
        for (Map<String, String> row : rows("batch-masters.csv")) {
            String layout = row.get("mode") + ", " + row.get("masters") + (row.get("masters").equals("1") ? " master" : " masters");
            if (!layouts.contains(layout)) {
                layouts.add(layout);
            }
            byMaster.computeIfAbsent("master " + row.get("master"), m -> new LinkedHashMap<>()).put(layout, number(row, "cpu_share"));
        }
        byMaster.forEach((master, shares) -> chart.addSeries(master, layouts,
                layouts.stream().map(l -> shares.getOrDefault(l, 0.0)).toList()));
        return chart;
    }

    /**
     * Granted firings per second against the offered load (threads per node), one line per contender on the
     * standalone Redis, with the Redis CPU each level used.
     */
    XYChart capacity() throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Fleet capacity, one Redis: granted firings/s as the offered load rises")
                .xAxisTitle("worker threads per node (each node asks from all of them at once; log)")
                .yAxisTitle("granted firings per second").build();
        chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisMin(0.0);
        Map<String, List<double[]>> byContender = new LinkedHashMap<>();
        for (Map<String, String> row : rows("capacity.csv")) {
            if (row.get("redis").equals("standalone")) {
                byContender.computeIfAbsent(row.get("contender") + ", " + row.get("nodes") + " nodes",
                        c -> new ArrayList<>()).add(new double[] {
                    number(row, "threads_per_node"), number(row, "granted_per_s"), number(row, "redis_cpu_pct")});
            }
        }
        byContender.forEach((contender, points) -> {
            points.sort((a, b) -> Double.compare(a[0], b[0]));
            chart.addSeries(String.format(Locale.ROOT, "%s (Redis CPU %.0f-%.0f %% of a core)", contender,
                            points.stream().mapToDouble(p -> p[2]).min().orElse(0), points.stream().mapToDouble(p -> p[2]).max().orElse(0)),
                    points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray());
        });
        return chart;
    }

    /** The capacity blocks of the markdown text, rewritten from the capacity CSV files. */
    String capacityBlocks(String text) throws IOException {
        text = replaceBlock(text, "capacity", table("capacity-summary.csv"));
        return replaceBlock(text, "capacity-projection", table("capacity-projection.csv"));
    }

    /** A markdown table of one CSV, as it is. */
    String table(String file) throws IOException {
        List<Map<String, String>> rows = rows(file);
        List<String> header = new ArrayList<>(rows.isEmpty() ? List.of() : rows.get(0).keySet());
        StringBuilder md = new StringBuilder("| ").append(String.join(" | ", header)).append(" |\n|");
        header.forEach(h -> md.append(" --- |"));
        md.append('\n');
        for (Map<String, String> row : rows) {
            md.append("| ").append(String.join(" | ", row.values())).append(" |\n");
        }
        return md.toString();
    }

    /**
     * How many nodes x jobs one Redis core serves at 50 % CPU, from the largest fleet's measured
     * Redis CPU per decision: every node decides every fire time of every job, so a period P makes
     * nodes x jobs / P decisions per second.
     */
    String fleetProjection() throws IOException {
        List<Map<String, String>> rows = rows("fleet.csv");
        Map<String, String> largest = rows.get(rows.size() - 1);
        double usec = number(largest, "redis_usec_per_decision");
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
                "Projection from the largest fleet measured (%s nodes x %s jobs, %.2f µs of Redis CPU per decision): "
                        + "nodes x jobs one Redis core serves at 50 %% CPU.%n%n| firing period | nodes x jobs at 50 %% of one core |%n| --- | --- |%n",
                largest.get("nodes"), largest.get("jobs"), usec));
        for (int[] period : new int[][] {{1, 1}, {10, 1}, {60, 1}, {300, 1}}) {
            long capacity = (long) (0.5e6 * period[0] / usec);
            md.append(String.format(Locale.ROOT, "| %d s | %,d |%n", period[0], capacity));
        }
        return md.toString();
    }

    private void save(Chart<?, ?> chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static String replaceBlock(String text, String name, String content) {
        String open = "<!-- generated:" + name + " -->";
        String close = "<!-- /generated:" + name + " -->";
        int start = text.indexOf(open);
        int end = text.indexOf(close);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("docs/benchmarks.md has no " + open + " ... " + close + " block");
        }
        return text.substring(0, start + open.length()) + "\n" + content + text.substring(end);
    }

    private static double number(Map<String, String> row, String column) {
        String value = row.get(column);
        if (value == null || value.isBlank()) {
            return Double.NaN;
        }
        return Double.parseDouble(value);
    }
}
