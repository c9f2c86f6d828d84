package io.jobguard.benchmarks;

import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Counters read from the text Redis {@code INFO} answers. */
final class RedisInfo {

    private RedisInfo() {
    }

    /**
     * The server's CPU time, system plus user.
     *
     * @param info the answer to {@code INFO cpu}
     * @return seconds
     */
    static double cpuSeconds(String info) {
        double seconds = 0;
        for (String value : values(info, "used_cpu_sys", "used_cpu_user")) {
            seconds += Double.parseDouble(value);
        }
        return seconds;
    }

    /**
     * The server's CPU time, system plus user.
     *
     * @param info the answer to {@code INFO cpu}
     * @return microseconds
     */
    static double cpuMicros(String info) {
        return cpuSeconds(info) * 1e6;
    }

    /**
     * Each server's CPU time, system plus user, read one after the other.
     *
     * @param servers an admin connection to each server (each master of a cluster)
     * @return seconds, in the order of {@code servers}
     */
    static double[] cpuSeconds(List<RedisCommands<String, String>> servers) {
        double[] out = new double[servers.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = cpuSeconds(servers.get(i).info("cpu"));
        }
        return out;
    }

    /**
     * The commands the servers ran so far, summed over them: every {@code cmdstat_*} entry's {@code calls}, which
     * counts a script call ({@code EVALSHA}) and each command the script called.
     *
     * @param servers an admin connection to each server (each master of a cluster)
     * @return the calls
     */
    static long calls(List<RedisCommands<String, String>> servers) {
        long calls = 0;
        for (RedisCommands<String, String> server : servers) {
            for (String line : server.info("commandstats").split("\r?\n")) {
                int at = line.indexOf("calls=");
                if (line.startsWith("cmdstat_") && at > 0) {
                    int end = line.indexOf(',', at);
                    calls += Long.parseLong(line.substring(at + 6, end < 0 ? line.length() : end));
                }
            }
        }
        return calls;
    }

    /**
     * Each server's CPU seconds (user + system) per second while no client of the benchmark runs: a
     * cluster's gossip and cron, to subtract from what a workload measured.
     *
     * @param servers an admin connection to each server
     * @param sample  how long to sample
     * @return CPU seconds per second, in the order of {@code servers}
     * @throws InterruptedException if interrupted while sampling
     */
    static double[] idleCpuRate(List<RedisCommands<String, String>> servers, Duration sample) throws InterruptedException {
        double[] before = cpuSeconds(servers);
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(sample.toNanos());
        double seconds = (System.nanoTime() - start) / 1e9;
        double[] after = cpuSeconds(servers);
        double[] rate = new double[servers.size()];
        for (int i = 0; i < rate.length; i++) {
            rate[i] = (after[i] - before[i]) / seconds;
        }
        return rate;
    }

    /**
     * The bytes the server has received and sent.
     *
     * @param info the answer to {@code INFO stats}
     * @return input plus output bytes
     */
    static long netBytes(String info) {
        long bytes = 0;
        for (String value : values(info, "total_net_input_bytes", "total_net_output_bytes")) {
            bytes += Long.parseLong(value);
        }
        return bytes;
    }

    /** The values of the named fields, in the order the answer lists them. */
    private static List<String> values(String info, String... fields) {
        List<String> values = new ArrayList<>();
        for (String line : info.split("\r?\n")) {
            for (String field : fields) {
                if (line.startsWith(field + ":")) {
                    values.add(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        return values;
    }
}
