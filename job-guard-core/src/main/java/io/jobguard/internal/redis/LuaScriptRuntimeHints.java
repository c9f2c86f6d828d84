package io.jobguard.internal.redis;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Includes every Lua script of job-guard ({@code io/jobguard/redis/*.lua}, the prelude with them) in a native image
 * built with Spring AOT, so {@link LuaScript#load} finds them there as it does on the class path. One pattern, not a
 * list of names: a script added to the folder is covered without touching this class. Listed in this module's
 * {@code META-INF/spring/aot.factories}, so an application gets it whenever job-guard-core is on its class path,
 * with or without job-guard-spring; Spring instantiates it through that file only.
 */
final class LuaScriptRuntimeHints implements RuntimeHintsRegistrar {

    /** The pattern of the scripts' resource names, as {@link LuaScript} reads them (no leading slash). */
    static final String SCRIPTS = "io/jobguard/redis/*.lua";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS);
    }
}
