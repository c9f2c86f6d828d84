package io.jobguard.internal.redis;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Lua prelude: every script is loaded as {@code prelude.lua} followed by its own file,
 * hashed as one text for EVALSHA, and the prelude's functions (server time, key checks) work on a
 * real Redis; Redis' error line numbers are offset by {@link LuaScript#preludeLines()}.
 */
@WithRedis
class LuaPreludeIT {

    private static final List<String> SCRIPTS = List.of("batch-acquire", "batch-index", "batch-release", "batch-renew",
            "fence-set", "history-note", "run-acquire", "run-force-release", "run-release", "run-renew", "run-retry-by-hand",
            "schedule-publish", "shedlock-extend", "shedlock-lock", "shedlock-unlock");

    private final RedisServerProcess redis;
    private final LettuceConnectionFactory connectionFactory;
    private final ScriptRunner runner;
    private final LuaScript probe = LuaScript.load("prelude-probe");

    LuaPreludeIT(RedisServerProcess redis) {
        this.redis = redis;
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(5));
        this.runner = new ScriptRunner(connectionFactory);
    }

    @AfterEach
    void close() {
        connectionFactory.destroy();
    }

    @Test
    void everyScriptIsThePreludeFollowedByItsOwnFileWithoutCommentLinesUnderOneSha() throws Exception {
        String prelude = resource("prelude");
        assertThat(LuaScript.preludeLines()).isEqualTo(prelude.split("\n", -1).length - 1).isPositive();
        for (String name : SCRIPTS) {
            LuaScript script = LuaScript.load(name);
            String files = prelude + resource(name);
            assertThat(script.source()).as(name).isEqualTo(LuaScript.withoutCommentLines(files));
            assertThat(script.source().split("\n", -1)).as(name + ": the same lines, so error line numbers match")
                    .hasSize(files.split("\n", -1).length);
            assertThat(script.source().lines().filter(l -> l.stripLeading().startsWith("--")))
                    .as(name + ": comment-only lines are not sent").isEmpty();
            assertThat(script.source().length()).as(name + ": mostly code").isLessThan(files.length() * 3 / 4);
            assertThat(script.sha1()).as(name).isEqualTo(HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-1").digest(script.source().getBytes(StandardCharsets.UTF_8))));
            assertThat(resource(name)).as(name + " keeps its own header").startsWith("-- ").contains("KEYS[1]");
            assertThat(redis.call("SCRIPT", "LOAD", script.source())).as(name + " compiles in Redis").isEqualTo(script.sha1());
        }
    }

    @Test
    void thePreludeIsNoScriptOfItsOwn() {
        assertThatThrownBy(() -> LuaScript.load("prelude")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void serverTimeIsRedisTimeInMillisAndMicros() {
        List<?> before = (List<?>) redis.call("TIME");
        List<Object> reply = runner.run(probe, ReturnType.MULTI, List.of("k"), List.of("time"));
        List<?> after = (List<?>) redis.call("TIME");
        long millis = ScriptRunner.number(reply.get(0));
        long micros = ScriptRunner.number(reply.get(1));
        assertThat(micros).isBetween(micros(before), micros(after));
        assertThat(millis).isEqualTo(micros / 1000);
    }

    @Test
    void keyChecksNameTheKeyAndItsType() {
        redis.call("HSET", "probe:hash", "f", "v");
        redis.call("SET", "probe:counter", "-2");
        redis.call("SET", "probe:good", "41");

        assertThat(check("type", "probe:hash", "list"))
                .isEqualTo("job-guard: key probe:hash holds a hash where job-guard keeps a list; nothing was written"
                        + " (the key is not job-guard's: rename or delete it)");
        assertThat(check("type", "probe:hash", "hash")).isEmpty();
        assertThat(check("type", "probe:missing", "zset")).isEmpty();
        assertThat(check("counter", "probe:counter", "")).startsWith("job-guard: fencing counter probe:counter holds \"-2\"");
        assertThat(check("counter", "probe:hash", "")).startsWith("job-guard: fencing counter probe:hash holds a hash");
        assertThat(check("counter", "probe:good", "")).isEmpty();
        assertThat(check("counter", "probe:missing", "")).isEmpty();
    }

    @Test
    void redisNamesTheScriptLineOffsetByThePrelude() {
        int line = LuaScript.preludeLines() + 12;
        assertThatThrownBy(() -> runner.run(probe, ReturnType.MULTI, List.of("k"), List.of("fail")))
                .satisfies(e -> assertThat(messages(e)).containsPattern("user_script:" + line + "\\D"));
    }

    private String check(String what, String key, String want) {
        return ScriptRunner.text(runner.run(probe, ReturnType.VALUE, List.of(key), List.of(what, want)));
    }

    private static long micros(List<?> time) {
        return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000 + Long.parseLong(String.valueOf(time.get(1)));
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = LuaPreludeIT.class.getResourceAsStream("/io/jobguard/redis/" + name + ".lua")) {
            assertThat(in).as(name + ".lua").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
