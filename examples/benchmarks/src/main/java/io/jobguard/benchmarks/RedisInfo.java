package io.jobguard.benchmarks;

import java.util.ArrayList;
import java.util.List;

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
