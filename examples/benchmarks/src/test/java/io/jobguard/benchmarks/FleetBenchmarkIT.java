package io.jobguard.benchmarks;

import io.jobguard.testing.RedisServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fleet benchmark and the chart generator at a tiny size, in every build: the
 * benchmark's own checks hold (each fire time granted once in the fleet), the key count does not grow
 * with the number of fire times, and the report draws every chart from the CSV columns it documents.
 * The real run is {@code bash examples/run-benchmarks.sh}.
 */
class FleetBenchmarkIT {

    /** A tiny fleet decides one simulated second in milliseconds; a short tolerance keeps the markers' wait short. */
    private static final Duration TOLERANCE = Duration.ofSeconds(2);

    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.stop();
    }

    @Test
    void theKeyCountAfterTheMarkersTtlDoesNotGrowWithTheFireTimes() throws Exception {
        FleetBenchmark.FleetResult few = FleetBenchmark.measure(redis.host(), redis.port(), 3, 20, 3 * 20 * 3, TOLERANCE);
        redis.flushAll();
        FleetBenchmark.FleetResult many = FleetBenchmark.measure(redis.host(), redis.port(), 3, 20, 3 * 20 * 12, TOLERANCE);

        assertThat(few.decisions()).isEqualTo(180);
        assertThat(many.decisions()).isEqualTo(720);
        assertThat(many.keysAfter()).isEqualTo(few.keysAfter()).isPositive().isLessThanOrEqualTo(20L * 6);
        assertThat(many.redisUsecPerDecision()).isPositive();
        assertThat(many.bytesPerDecision()).isPositive();
        assertThat(many.p99Us()).isGreaterThanOrEqualTo(many.p50Us()).isPositive();
        assertThat(many.memoryBytesPerJob()).isPositive();
    }

    @Test
    void theReportDrawsEveryChartAndFillsEveryTable(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        FleetBenchmark.FleetResult result = FleetBenchmark.measure(redis.host(), redis.port(), 2, 10, 2 * 10 * 2, TOLERANCE);
        Files.writeString(data.resolve("fleet.csv"), FleetBenchmark.HEADER + "\n" + result.csv() + "\n");
        Files.writeString(data.resolve("firing-summary.csv"), "contender,rounds,median_us,p99_us,redis_usec_per_firing\n"
                + "a,3,100.0,200.0,30.00\nb,3,120.0,220.0,\n");
        Files.writeString(data.resolve("firing-ratios.csv"), "ratio,target,measured\na / b,at most 1.1x,0.83x\n");
        Files.writeString(data.resolve("firing-latency.csv"), "contender,latency_us\na,90.5\na,110.0\nb,130.0\n");
        Files.writeString(data.resolve("firing-link-summary.csv"), "pacing,contender,rounds,median_us,p99_us,redis_usec_per_firing\n"
                + "back-to-back,a,3,600.0,900.0,30.00\nback-to-back,b,3,1100.0,1500.0,20.00\n"
                + "period-apart,a,3,650.0,950.0,\nperiod-apart,b,3,1150.0,1600.0,\n");
        Files.writeString(data.resolve("firing-link-ratios.csv"), "pacing,ratio,target,measured\n"
                + "back-to-back,a / b,at most 0.6x,0.55x\nperiod-apart,a / b,at most 0.6x,0.57x\n");
        Files.writeString(data.resolve("firing-link-rtt.csv"), "path,delay_to_redis_us,delay_to_client_us,pings,median_us,min_us\n"
                + "direct,0,0,1000,50.0,30.0\nlink,250,250,1000,600.0,540.0\n");
        Files.writeString(data.resolve("script-cost.csv"), "call,pacing,rounds,redis_usec_in_command,redis_usec_per_call\n"
                + "empty-script,back-to-back,3,6.9,42.5\nempty-script,20-ms-apart,3,22.8,\n");
        Files.writeString(data.resolve("batch-n.csv"), "contender,n,median_ms\na,10,0.5\na,100,1.5\nb,10,0.7\nb,100,3.0\n");
        Files.writeString(data.resolve("batch-masters.csv"), "mode,masters,master,cpu_share,redis_usec_per_key\n"
                + "hash,1,1,1.0,1.1\nspread,3,1,0.3,1.0\nspread,3,2,0.3,1.0\nspread,3,3,0.4,1.0\n");
        Files.writeString(data.resolve("slowlog.csv"), "benchmark,max_command_us,command\nx,1200,EVALSHA\n");
        Files.writeString(data.resolve("batch-floors-summary.csv"), "contender,n,median_ms,median_redis_usec_per_key\n"
                + "a,3000,5.0,0.8\nb,3000,6.0,0.9\n");
        Files.writeString(data.resolve("batch-floors-ratios.csv"), "ratio,target,measured\na / b,at most 1.2x,0.89x\n");
        Files.writeString(data.resolve("capacity.csv"), CapacityBenchmark.HEADER + "\n"
                + "standalone,1,a,2,10,1,4.00,400,100,200,20.0,200.00,13.00,1.000,95.0,0,0\n"
                + "standalone,1,a,2,10,2,4.00,600,150,300,30.0,200.00,13.00,1.000,95.0,0,0\n"
                + "cluster-3,3,a,2,10,2,4.00,600,140,280,30.0,210.00,13.00,0.400,95.0,0,0\n");
        Files.writeString(data.resolve("capacity-summary.csv"), CapacityBenchmark.SUMMARY_HEADER + "\n"
                + "standalone,a,2x10,2,150,300,30.0,95.0,200.00,13.00,6333.33,5000,1.00x\n");
        Files.writeString(data.resolve("capacity-projection.csv"), CapacityBenchmark.PROJECTION_HEADER + "\n"
                + "a,cluster-3,210.00,0.400,4762,14286,28571,57143,11905\n");
        Path markdown = dir.resolve("benchmarks.md");
        StringBuilder md = new StringBuilder("# Benchmarks\n");
        for (String block : List.of("firing", "firing-ratios", "firing-link", "firing-link-ratios", "script-cost", "fleet", "batch-masters",
                "batch-n", "slowlog", "batch-floors", "batch-floor-ratios", "capacity", "capacity-projection")) {
            md.append("<!-- generated:").append(block).append(" -->\nold\n<!-- /generated:").append(block).append(" -->\n");
        }
        Files.writeString(markdown, md);

        BenchmarkReport.main(new String[] {data.toString(), dir.toString(), markdown.toString()});

        for (String chart : List.of("batch-time-vs-n.png", "firing-latency.png", "firing-link.png", "fleet-redis-cpu.png",
                "batch-cpu-per-master.png", "capacity.png")) {
            assertThat(dir.resolve(chart)).isNotEmptyFile();
        }
        String written = Files.readString(markdown);
        assertThat(written).doesNotContain("old").contains("| contender | rounds | median_us |").contains("| a / b | at most 1.1x | 0.83x |")
                .contains("| 2 | 10 | 40 |").contains("nodes x jobs at 50 % of one core")
                .contains("| period-apart | a / b | at most 0.6x | 0.57x |").contains("| back-to-back | b | 3 | 1100.0 |")
                .contains("the link added 550 µs per round trip").contains("| b | 3000 | 6.0 | 0.9 |")
                .contains("| a / b | at most 1.2x | 0.89x |").contains("| standalone | a | 2x10 | 2 | 150 |")
                .contains("| a | cluster-3 | 210.00 | 0.400 | 4762 |")
                .contains("| empty-script | 20-ms-apart | 3 | 22.8 |  |");

        Files.delete(data.resolve("batch-n.csv"));
        assertThatThrownBy(() -> BenchmarkReport.main(new String[] {data.toString(), dir.toString(), markdown.toString()}))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("batch-n.csv is missing: run examples/benchmarks/run-batch-bench.sh");
    }
}
