package io.jobguard.spring.firing;

import io.jobguard.ClusterSingleton;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Refuses, at startup, every {@code @ClusterSingleton} that job-guard could not honour, rather than
 * letting it run unguarded. The guard is a CGLIB proxy around the bean: a method the proxy cannot override
 * (static, private, final, or of a final class) would be called by the scheduler directly, with no
 * lease, on every node, while the annotation says it is guarded. A class-level annotation on a
 * Spring bean guards nothing, since job-guard guards each {@code @Scheduled} method. A one-time
 * {@code @Scheduled(initialDelay = ...)} has no fire time that the nodes share: each node's fire
 * time is its own start plus the delay, so each would run it once.
 */
final class GuardableMethods {

    private static final String QUARTZ_JOB = "org.quartz.Job";

    private GuardableMethods() {
    }

    /** Refuses a method the proxy cannot intercept. */
    static void check(Class<?> beanClass, Method method, String where) {
        int modifiers = method.getModifiers();
        String unguarded = "; job-guard's proxy cannot intercept it, so the scheduler would call it directly and it "
                + "would run unguarded on every node";
        if (Modifier.isStatic(modifiers)) {
            throw new IllegalStateException(where + ": the method is static" + unguarded
                    + ". Make it an instance method");
        }
        if (Modifier.isPrivate(modifiers)) {
            throw new IllegalStateException(where + ": the method is private" + unguarded
                    + ". Make it public, protected or package-private");
        }
        if (Modifier.isFinal(modifiers)) {
            throw new IllegalStateException(where + ": the method is final" + unguarded
                    + ". Remove 'final' (in Kotlin, declare the method and its class 'open')");
        }
        if (Modifier.isFinal(beanClass.getModifiers())) {
            throw new IllegalStateException(where + ": the class " + beanClass.getName() + " is final" + unguarded
                    + ". Remove 'final' from the class (in Kotlin, declare it 'open')");
        }
    }

    /** Refuses a schedule whose fire times are not the same on every node. */
    static void checkSharedGrid(ScheduleSpec schedule, String where) {
        if (schedule.kind() == ScheduleSpec.Kind.ONE_TIME) {
            throw new IllegalStateException(where + ": a one-time @Scheduled (initialDelay alone, "
                    + schedule.describe() + ") has no fire time shared by the nodes: each node's fire time is its "
                    + "own start plus the delay, so every node would run it once. Use a cron or fixedRate "
                    + "schedule, or call JobGuard.run(options, nominalFireTime, body) with a fire time every node agrees on");
        }
    }

    /** Refuses {@code @ClusterSingleton} on the class of a Spring bean (Quartz job classes excepted). */
    static void checkNotOnClass(Class<?> userClass, String beanName) {
        if (!AnnotatedElementUtils.hasAnnotation(userClass, ClusterSingleton.class) || isQuartzJob(userClass)) {
            return;
        }
        throw new IllegalStateException("@ClusterSingleton on class " + userClass.getName() + " (bean '" + beanName
                + "') guards nothing: job-guard guards each @Scheduled method, and on a Spring bean's class the "
                + "annotation is ignored, so every node would run its methods. Put @ClusterSingleton on each "
                + "@Scheduled method instead (on a Quartz Job class, the class-level annotation stays the way to "
                + "guard the job)");
    }

    private static boolean isQuartzJob(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        if (!ClassUtils.isPresent(QUARTZ_JOB, loader)) {
            return false;
        }
        return ClassUtils.resolveClassName(QUARTZ_JOB, loader).isAssignableFrom(type);
    }
}
