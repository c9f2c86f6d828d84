package io.jobguard.benchmarks;

import io.jobguard.testing.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The capacity benchmark at a tiny size, in every build: 2 nodes x 6 jobs at two load levels, each
 * contender on the same Redis; job-guard grants every fire time exactly once (the benchmark itself
 * fails otherwise), every contender decides fire times, and the three CSV files are written. The real run
 * is {@code examples/benchmarks/run-capacity-bench.sh}.
 */
class CapacityBenchmarkIT {

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
    void everyContenderDecidesEveryFireTimeAndJobGuardGrantsEachOnce(@TempDir Path out) throws Exception {
        RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        List<CapacityBenchmark.Level> levels;
        List<CapacityBenchmark.Level> paced;
        try (StatefulRedisConnection<String, String> admin = client.connect()) {
            CapacityBenchmark.Target target = new CapacityBenchmark.Target("standalone", 1,
                    new RedisStandaloneConfiguration(redis.host(), redis.port()),
                    c -> c.useSingleServer().setAddress(redis.uri()).setConnectionMinimumIdleSize(1), List.of(admin.sync()));
            levels = CapacityBenchmark.measure(target, new CapacityBenchmark.Settings(2, 6, new int[] {1, 2},
                    Duration.ofMillis(100), Duration.ofMillis(400), 0));
            // --rate: 300 granted firings per second at most (6 jobs, so a step of 20 ms), whoever could go faster
            paced = CapacityBenchmark.measure(target, new CapacityBenchmark.Settings(2, 6, new int[] {2},
                    Duration.ofMillis(100), Duration.ofMillis(1_000), 300));
        } finally {
            client.shutdown();
        }

        assertThat(levels).hasSize(8);
        assertThat(levels).extracting(CapacityBenchmark.Level::contender).containsOnly(CapacityBenchmark.JOB_GUARD,
                CapacityBenchmark.JOB_GUARD_ASK_ALL, CapacityBenchmark.SHEDLOCK, CapacityBenchmark.REDISSON);
        for (CapacityBenchmark.Level level : levels) {
            assertThat(level.fireTimes()).as(level.toString()).isPositive();
            assertThat(level.grantedPerSecond()).as(level.toString()).isPositive();
            assertThat(level.decisionsPerSecond()).as(level.toString()).isCloseTo(2.0 * level.fireTimes() / level.seconds(), org.assertj.core.api.Assertions.within(1e-6));
            // winners hold until every node has asked: every contender grants each fire time once here
            assertThat(level.missed()).as(level.toString()).isZero();
            assertThat(level.duplicates()).as(level.toString()).isZero();
        }

        assertThat(paced).hasSize(4).allSatisfy(level -> {
            assertThat(level.grantedPerSecond()).as(level.toString()).isPositive().isLessThanOrEqualTo(300 * 1.1);
            assertThat(level.missed() + level.duplicates()).as(level.toString()).isZero();
        });

        CapacityReport.write(out, "capacity", levels);
        assertThat(Files.readAllLines(out.resolve("capacity.csv"))).hasSize(9).first().isEqualTo(CapacityBenchmark.HEADER);
        assertThat(Files.readAllLines(out.resolve("capacity-summary.csv"))).hasSize(5);
        assertThat(Files.readString(out.resolve("capacity-projection.csv"))).startsWith(CapacityBenchmark.PROJECTION_HEADER);
    }
}
