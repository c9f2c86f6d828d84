package io.jobguard.internal.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script loaded once from {@code io/jobguard/redis/<name>.lua}, with its SHA-1 for EVALSHA.
 * The loaded text is {@code prelude.lua} (server time and key checks shared by every script)
 * followed by the script's own file, so one EVALSHA still carries one whole script; a line {@code n}
 * that Redis names in an error ({@code user_script:n}) is line {@code n - }{@link #preludeLines()} of
 * the script's file.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class LuaScript {

    private static final String FOLDER = "/io/jobguard/redis/";
    private static final String PRELUDE = "prelude";

    private final String name;
    private final byte[] body;
    private final String sha1;

    private LuaScript(String name, byte[] body) {
        this.name = name;
        this.body = body;
        this.sha1 = sha1Hex(body);
    }

    /**
     * Loads a script from the classpath.
     *
     * @param name the file name without {@code .lua}
     * @return the script
     * @throws IllegalStateException    if the resource is missing
     * @throws IllegalArgumentException if the name is {@code prelude}, which is part of every script
     */
    public static LuaScript load(String name) {
        if (PRELUDE.equals(name)) {
            throw new IllegalArgumentException("prelude.lua is not a script of its own: every script loads it");
        }
        byte[] prelude = read(PRELUDE);
        byte[] script = read(name);
        String text = new String(prelude, StandardCharsets.UTF_8) + new String(script, StandardCharsets.UTF_8);
        return new LuaScript(name, withoutCommentLines(text).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Empties every line that holds only a {@code --} comment. The scripts are mostly comments (their
     * headers, the reasons for each step), and a script goes out whole as EVAL whenever Redis has lost it
     * (NOSCRIPT): without them it is less than half the bytes on the wire and to hash.
     * The lines stay, empty, so Redis' line numbers in an error still match the files. The scripts use
     * no long strings or block comments ({@code [[}), in which such a line could mean something.
     */
    static String withoutCommentLines(String text) {
        StringBuilder out = new StringBuilder(text.length());
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (i > 0) {
                out.append('\n');
            }
            if (!line.stripLeading().startsWith("--")) {
                out.append(line);
            }
        }
        return out.toString();
    }

    /**
     * Returns how many lines {@code prelude.lua} puts in front of every script: Redis' line
     * {@code user_script:n} is line {@code n - preludeLines()} of the script's file.
     *
     * @return the number of lines of the prelude
     */
    public static int preludeLines() {
        int lines = 0;
        for (byte b : read(PRELUDE)) {
            if (b == '\n') {
                lines++;
            }
        }
        return lines;
    }

    private static byte[] read(String name) {
        String path = FOLDER + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("job-guard script " + path + " is missing from the classpath");
            }
            byte[] text = in.readAllBytes();
            if (PRELUDE.equals(name) && (text.length == 0 || text[text.length - 1] != '\n')) {
                throw new IllegalStateException(path + " must end with a line break, or it would run into the script's first line");
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read job-guard script " + path, e);
        }
    }

    /**
     * Returns the script's name.
     *
     * @return the file name without {@code .lua}
     */
    public String name() {
        return name;
    }

    /**
     * Returns the script text.
     *
     * @return the script text as UTF-8 bytes (do not modify)
     */
    public byte[] body() {
        return body;
    }

    /**
     * Returns the text Redis runs: the prelude followed by the script's file.
     *
     * @return the whole script, as sent by EVAL and hashed for EVALSHA
     */
    public String source() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * Returns the SHA-1 digest used by EVALSHA.
     *
     * @return the SHA-1 of the script, lower-case hex
     */
    public String sha1() {
        return sha1;
    }

    private static String sha1Hex(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available", e);
        }
    }

    @Override
    public String toString() {
        return name + ".lua";
    }
}
