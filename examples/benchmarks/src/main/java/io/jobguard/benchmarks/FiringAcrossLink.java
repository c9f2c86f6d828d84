package io.jobguard.benchmarks;

import io.jobguard.benchmarks.FiringContenders.Contender;
import io.jobguard.benchmarks.FiringRounds.Timed;
import io.lettuce.core.api.sync.RedisCommands;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jobguard.benchmarks.FiringRounds.medians;
import static io.jobguard.benchmarks.FiringRounds.ratio;
import static io.jobguard.benchmarks.FiringRounds.roundOrder;
import static io.jobguard.benchmarks.FiringRounds.rows;
import static io.jobguard.benchmarks.FiringRounds.time;
import static io.jobguard.benchmarks.FiringRounds.warmUp;

/**
 * {@link FiringBenchmark}'s link mode: every contender's connection through a delayed link, each round timing two
 * pacings, back to back and a period apart.
 */
final class FiringAcrossLink {

    private static final String BACK_TO_BACK = "back-to-back";
    private static final String PERIOD_APART = "period-apart";
    private static final int RTT_PINGS = 1_000;

    private FiringAcrossLink() {
    }

    /**
     * The delayed link's settings.
     *
     * @param delayMs      the round trip the link adds, split evenly between requests and replies
     * @param apartFirings firings per round of the period-apart pacing
     * @param gapMs        the pause before each period-apart firing
     */
    record Link(double delayMs, int apartFirings, long gapMs) {
        Duration perDirection() {
            return Duration.ofNanos(Math.round(delayMs * 1_000_000 / 2));
        }
    }

    /**
     * Link mode: every round runs both pacings (their order alternating between rounds), and within each
     * pacing every contender, in the rotating order of the loopback rounds. Back to back, nothing is settled
     * between firings: job-guard's release of one firing is in flight when the next acquire is sent.
     */
    static void measure(Map<String, Contender> contenders, RedisCommands<String, String> redis,
                        RedisCommands<String, String> info, Link link, int rounds, int firings, Path out) throws Exception {
        List<String> order = new ArrayList<>(contenders.keySet());
        Map<String, Integer> next = warmUp(contenders, firings);
        long perDirectionUs = link.perDirection().toNanos() / 1_000;
        List<String> rtt = new ArrayList<>(List.of("path,delay_to_redis_us,delay_to_client_us,pings,median_us,min_us"));
        rtt.add(pings("direct", info, 0));
        rtt.add(pings("link", redis, perDirectionUs));
        System.out.printf("PING round trip, median over %,d (direct, then through the link): %s | %s%n", RTT_PINGS,
                rtt.get(1), rtt.get(2));

        List<String> csv = new ArrayList<>(List.of("pacing,contender,round,firings,median_us,p99_us,redis_usec_per_firing"));
        Map<String, Map<String, List<double[]>>> byPacing = new LinkedHashMap<>();
        byPacing.put(BACK_TO_BACK, new LinkedHashMap<>());
        byPacing.put(PERIOD_APART, new LinkedHashMap<>());
        Map<String, long[]> unused = new HashMap<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> pacings = round % 2 == 1 ? List.of(BACK_TO_BACK, PERIOD_APART) : List.of(PERIOD_APART, BACK_TO_BACK);
            for (String pacing : pacings) {
                boolean apart = pacing.equals(PERIOD_APART);
                for (String name : roundOrder(order, round)) {
                    int n = apart ? link.apartFirings() : firings;
                    double cpuBefore = RedisInfo.cpuMicros(info.info("cpu"));
                    Timed timed = time(contenders.get(name), next.get(name), n, apart ? link.gapMs() : 0, false);
                    double cpu = (RedisInfo.cpuMicros(info.info("cpu")) - cpuBefore) / n;
                    next.merge(name, n, Integer::sum);
                    List<String> lines = new ArrayList<>();
                    rows(lines, byPacing.get(pacing), unused, name, round, timed, apart ? "" : String.format("%.2f", cpu));
                    lines.forEach(line -> csv.add(pacing + "," + line));
                }
            }
        }
        Files.createDirectories(out);
        Files.write(out.resolve("firing-link.csv"), csv);
        Files.write(out.resolve("firing-link-rtt.csv"), rtt);

        List<String> summary = new ArrayList<>(List.of("pacing,contender,rounds,median_us,p99_us,redis_usec_per_firing"));
        List<String> ratios = new ArrayList<>(List.of("pacing,ratio,target,measured"));
        byPacing.forEach((pacing, byContender) -> {
            System.out.printf("%s, link +%s ms per round trip:%n", pacing, link.delayMs());
            summary.addAll(medians(byContender, pacing + ","));
            System.out.println("ratios: the median over rounds of each round's ratio");
            List<String> lines = new ArrayList<>();
            ratio(lines, byContender, "scheduler-thread time / ShedLock lock + unlock", "jobguard-scheduler-thread", "shedlock-default", 0, "at most 0.6x");
            ratio(lines, byContender, "scheduler-thread time / the two-round-trip floor", "jobguard-scheduler-thread", "floor-setnx-cad", 0, "");
            ratio(lines, byContender, "scheduler-thread time / one round trip (one SET)", "jobguard-scheduler-thread", "one-command-set", 0, "");
            ratio(lines, byContender, "ShedLock lock + unlock / one round trip (one SET)", "shedlock-default", "one-command-set", 0, "");
            // Bounds: the acquire script alone (no release, no Java around it) and a bare plain command, against the target's reference
            ratio(lines, byContender, "bound: one EVALSHA of the acquire script alone / ShedLock lock + unlock", "acquire-script-evalsha", "shedlock-default", 0, "");
            ratio(lines, byContender, "bound: one round trip (one SET) / ShedLock lock + unlock", "one-command-set", "shedlock-default", 0, "");
            lines.forEach(line -> ratios.add(pacing + "," + line));
        });
        Files.write(out.resolve("firing-link-summary.csv"), summary);
        Files.write(out.resolve("firing-link-ratios.csv"), ratios);
    }

    /** One CSV row of {@code firing-link-rtt.csv}: {@value #RTT_PINGS} PINGs on one connection. */
    private static String pings(String path, RedisCommands<String, String> connection, long perDirectionUs) {
        long[] nanos = new long[RTT_PINGS];
        for (int i = 0; i < nanos.length; i++) {
            long t0 = System.nanoTime();
            connection.ping();
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        return String.format("%s,%d,%d,%d,%.1f,%.1f", path, perDirectionUs, perDirectionUs, RTT_PINGS,
                nanos[nanos.length / 2] / 1000.0, nanos[0] / 1000.0);
    }
}
