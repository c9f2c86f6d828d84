package io.jobguard.benchmarks;

import io.jobguard.internal.redis.KeySchema;
import io.jobguard.internal.redis.LuaScript;
import io.jobguard.store.JobId;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Redis spends on one script call, split into the time inside the command ({@code INFO commandstats},
 * {@code usec_per_call}: the script and the commands it calls) and the whole Redis CPU per call ({@code INFO cpu}:
 * with reading the request and writing the reply), for calls back to back (warm caches) and 20 ms apart (what a
 * schedule's firings meet). The calls: one plain {@code SET}, an empty script, a script that runs only the six
 * commands of a granted acquire with fixed arguments, and {@code run-acquire.lua} itself, granted each time.
 *
 * <p>It tells what a design of the firing can still save: the commands, their call from Lua, and the script's own
 * logic. Arguments: rounds (default 7), calls per round back to back (default 2,000), calls per round apart
 * (default 100), output directory (default {@code docs/benchmarks/data}). Writes {@code script-cost.csv}
 * ({@code call,pacing,rounds,redis_usec_in_command,redis_usec_per_call}: medians over the rounds; the whole CPU
 * per call is left empty for the calls apart, where Redis' own idle work between them would dominate it).
 */
public final class ScriptCallCost {

    private static final String BACK_TO_BACK = "back-to-back";
    private static final String APART = "20-ms-apart";
    /** The six commands of a granted {@code run-acquire.lua}, with fixed arguments and none of its logic. */
    private static final String SIX_COMMANDS = """
            redis.call('MGET', KEYS[1], KEYS[2], KEYS[3])
            redis.call('HMGET', KEYS[4], 'e', 'f', 'p', 's', 'st', 'a', 'c', 'x', 'm')
            redis.call('TIME')
            redis.call('SET', KEYS[2], ARGV[1], 'PX', 60000, 'NX')
            redis.call('SET', KEYS[1], ARGV[1], 'PX', 1, 'NX')
            redis.call('HSET', KEYS[4], 'f', ARGV[2], 's', ARGV[2], 'st', ARGV[2], 'a', 1)
            return 1
            """;

    private ScriptCallCost() {
    }

    /** One kind of call; {@code i} makes each call's fire time and keys its own where that matters. */
    @FunctionalInterface
    private interface Call {
        void run(long i);
    }

    /**
     * Runs the measurement.
     *
     * @param args rounds, calls back to back, calls apart, output directory
     * @throws Exception if Redis cannot be started or a call fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int warmCalls = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        int apartCalls = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        Path out = Path.of(args.length > 3 ? args[3] : "docs/benchmarks/data");
        try (PrivateRedis server = PrivateRedis.start()) {
            RedisClient client = RedisClient.create(RedisURI.create(BenchRedis.HOST, server.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect();
                 StatefulRedisConnection<String, String> infoConnection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                Map<String, Call> calls = calls(redis);
                Map<String, List<double[]>> samples = new LinkedHashMap<>();
                long next = 0;
                for (Map.Entry<String, Call> c : calls.entrySet()) {
                    for (int i = 0; i < 500; i++) {
                        c.getValue().run(next++);
                    }
                }
                List<String> names = new ArrayList<>(calls.keySet());
                for (int round = 0; round < rounds; round++) {
                    for (int k = 0; k < names.size(); k++) {
                        String name = names.get((round + k) % names.size());
                        for (String pacing : round % 2 == 0 ? List.of(BACK_TO_BACK, APART) : List.of(APART, BACK_TO_BACK)) {
                            boolean apart = pacing.equals(APART);
                            int n = apart ? apartCalls : warmCalls;
                            RedisCommands<String, String> info = infoConnection.sync();
                            info.configResetstat();
                            double cpuBefore = RedisInfo.cpuMicros(info.info("cpu"));
                            for (int i = 0; i < n; i++) {
                                if (apart) {
                                    Thread.sleep(20);
                                }
                                calls.get(name).run(next++);
                            }
                            double cpuPerCall = (RedisInfo.cpuMicros(info.info("cpu")) - cpuBefore) / n;
                            double inCommand = usecPerCall(info.info("commandstats"), name.equals("one-command-set") ? "set" : "evalsha");
                            samples.computeIfAbsent(name + "," + pacing, x -> new ArrayList<>()).add(new double[] {inCommand, cpuPerCall});
                        }
                    }
                }
                List<String> csv = new ArrayList<>(List.of("call,pacing,rounds,redis_usec_in_command,redis_usec_per_call"));
                // apart, Redis' own idle work during the gaps would dominate its CPU per call: left empty
                samples.forEach((key, rows) -> csv.add(String.format("%s,%d,%.1f,%s", key, rows.size(),
                        FiringRounds.median(rows, 0), key.endsWith(APART) ? "" : String.format("%.1f", FiringRounds.median(rows, 1)))));
                Files.createDirectories(out);
                Files.write(out.resolve("script-cost.csv"), csv);
                csv.forEach(System.out::println);
            } finally {
                client.shutdown();
            }
        }
    }

    private static Map<String, Call> calls(RedisCommands<String, String> redis) {
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("one-command-set", i -> redis.set("cost-set", "v"));
        String emptySha = redis.scriptLoad("return 1");
        calls.put("empty-script", i -> redis.evalsha(emptySha, ScriptOutputType.INTEGER, new String[0]));
        String sixSha = redis.scriptLoad(SIX_COMMANDS);
        String[] sixKeys = {"cost-six-lease", "cost-six-marker", "cost-six-cooldown", "cost-six-state"};
        calls.put("six-acquire-commands-only", i -> redis.evalsha(sixSha, ScriptOutputType.INTEGER, sixKeys,
                "jg1|owner|" + i + "|0|" + i + "|bench", Long.toString(i)));
        String acquireSha = redis.scriptLoad(LuaScript.load("run-acquire").source());
        KeySchema keys = new KeySchema("cost");
        // 512 jobs in turn, each lease 1 ms: the next turn of a job finds its lease expired, so every call is a grant
        List<JobId> jobs = new ArrayList<>();
        for (int j = 0; j < 512; j++) {
            jobs.add(new JobId("default", "cost-job-" + j));
        }
        long start = System.currentTimeMillis() - 86_400_000L;
        calls.put("run-acquire-granted", i -> {
            long nominalFireTimeMillis = start + i;
            String[] k = keys.runAcquire(jobs.get((int) (i % jobs.size())), Instant.ofEpochMilli(nominalFireTimeMillis))
                    .toArray(String[]::new);
            List<Object> reply = redis.evalsha(acquireSha, ScriptOutputType.MULTI, k, "owner-" + i, "bench",
                    Long.toString(nominalFireTimeMillis), "1", "90000", "", "60000", "0", "", "", "", "", "", "", "", "20", "",
                    "");
            if (!"ACQUIRED".equals(reply.get(0))) {
                throw new IllegalStateException("acquire script answered " + reply);
            }
        });
        return calls;
    }

    /** {@code usec_per_call} of one command in an {@code INFO commandstats} reply; 0 if it did not run. */
    private static double usecPerCall(String commandstats, String command) {
        for (String line : commandstats.split("\r?\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                return Double.parseDouble(line.replaceAll("^.*usec_per_call=([0-9.]+).*$", "$1"));
            }
        }
        return 0;
    }
}
