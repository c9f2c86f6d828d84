package io.jobguard.internal;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * Background threads of job-guard: daemons, so that none of them keeps an application's JVM alive,
 * named so that a thread dump says whose they are.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /**
     * A factory of daemon threads that all bear one name.
     *
     * @param name the threads' name
     * @return the factory
     */
    public static ThreadFactory named(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * A scheduler with one daemon thread; cancelled tasks leave its queue at once.
     *
     * @param name the thread's name
     * @return the scheduler; shut it down when done
     */
    public static ScheduledThreadPoolExecutor scheduler(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, named(name));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }
}
