package io.jobguard.internal.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script loaded once from {@code io/jobguard/redis/<name>.lua}, with its SHA-1 for EVALSHA.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class LuaScript {

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
     * @throws IllegalStateException if the resource is missing
     */
    public static LuaScript load(String name) {
        String path = "/io/jobguard/redis/" + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("job-guard script " + path + " is missing from the classpath");
            }
            return new LuaScript(name, in.readAllBytes());
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
