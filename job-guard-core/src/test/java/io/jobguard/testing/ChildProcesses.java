package io.jobguard.testing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Last line of defence against leaked child processes (redis-server, {@link ChildJvm}): whatever is still
 * registered when the JVM exits (a test runner that never closed its store, a Ctrl-C) gets SIGKILL. SIGKILL also ends a process
 * that a test left stopped with SIGSTOP, which a polite SHUTDOWN could not.
 */
final class ChildProcesses {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::killAll, "jobguard-redis-reaper"));
    }

    private ChildProcesses() {
    }

    static void register(Process process) {
        LIVE.add(process);
    }

    static void unregister(Process process) {
        LIVE.remove(process);
    }

    private static void killAll() {
        for (Process process : LIVE) {
            process.destroyForcibly();
        }
    }
}
