package io.jobguard.spring.firing;

import io.jobguard.JobOptions;

import java.lang.reflect.Method;
import java.time.Clock;
import java.util.Objects;

/**
 * One {@code @ClusterSingleton @Scheduled} method of one bean class, as resolved at startup: its
 * job options (with its recovery of lost fire times), its schedule, the clock of the scheduler that
 * drives it and whether its task went through job-guard's scheduler. Each mutable part has one writer:
 * the trigger (clock), the scheduler decorator (routed), the post-processor (bean name) and the
 * recovery's starter (recovery); the outcome of its firings is the engine's
 * ({@code JobGuard.lastFiring}). Thread-safe.
 *
 * <p>Internal to job-guard's Spring integration; not an API.
 */
public final class GuardedJob {

    private final Class<?> beanClass;
    private final Method method;
    private final JobOptions options;
    private final ScheduleSpec schedule;
    private volatile Clock clock;
    /** The options with the job's recovery, set once at startup ({@link #recovery(io.jobguard.RecoveryOptions)}). */
    private volatile JobOptions firingOptions;
    private volatile boolean routed;
    private volatile String beanName;

    /**
     * Describes a guarded method.
     *
     * @param beanClass the user class of the bean
     * @param method    the guarded method
     * @param options   the resolved job options
     * @param schedule  the resolved schedule
     * @param clock     the clock to read "now" with until the scheduler tells its own
     */
    public GuardedJob(Class<?> beanClass, Method method, JobOptions options, ScheduleSpec schedule, Clock clock) {
        this.beanClass = Objects.requireNonNull(beanClass, "beanClass");
        this.method = Objects.requireNonNull(method, "method");
        this.options = Objects.requireNonNull(options, "options");
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.firingOptions = options;
    }

    /**
     * The key Spring's scheduled runnables print as their {@code toString()}:
     * {@code declaringClassName.methodName}.
     *
     * @param method the method
     * @return its runnable key
     */
    public static String runnableKey(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }

    /**
     * Names the method in messages: {@code com.example.Reports.nightly()}.
     *
     * @param beanClass the bean class
     * @param method    the method
     * @return a readable reference
     */
    public static String describe(Class<?> beanClass, Method method) {
        return beanClass.getName() + "." + method.getName() + "()";
    }

    /** @return the key the scheduled runnable of this method prints */
    public String runnableKey() {
        return runnableKey(method);
    }

    /** @return the bean's user class */
    public Class<?> beanClass() {
        return beanClass;
    }

    /** @return the guarded method */
    public Method method() {
        return method;
    }

    /** @return the resolved job options */
    public JobOptions options() {
        return options;
    }

    /** @return the resolved schedule */
    public ScheduleSpec schedule() {
        return schedule;
    }

    /** @return the scheduler's clock once the job is scheduled, else the engine's */
    public Clock clock() {
        return clock;
    }

    /**
     * Records the clock of the scheduler that drives this job.
     *
     * @param clock the scheduler's clock
     */
    public void clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Records the name of the bean whose method this is (for an operator's run-now).
     *
     * @param beanName the bean name
     */
    public void beanName(String beanName) {
        this.beanName = beanName;
    }

    /** @return the name of the bean whose method this is, or null if unknown */
    public String beanName() {
        return beanName;
    }

    /**
     * Records that job-guard's nominal-fire-time scheduler received this job's scheduled task
     * (checked at startup: a job whose task went around it is not guarded by its fire times).
     */
    public void markRouted() {
        this.routed = true;
    }

    /** @return whether job-guard's scheduler received this job's scheduled task */
    public boolean routed() {
        return routed;
    }

    /**
     * How the job recovers lost fire times, or null when it does not.
     *
     * @return the recovery options, or null
     */
    public io.jobguard.RecoveryOptions recovery() {
        return firingOptions.recovery();
    }

    /**
     * Sets how the job recovers lost fire times (set once at startup, by the recovery's starter only).
     *
     * @param recovery the options, or null for none
     */
    public void recovery(io.jobguard.RecoveryOptions recovery) {
        this.firingOptions = options.toBuilder().recovery(recovery).build();
    }

    /**
     * The options a firing of the method is guarded with: {@link #options()} with the job's recovery of
     * lost fire times, if it has one.
     *
     * @return the firing's options
     */
    public JobOptions firingOptions() {
        return firingOptions;
    }

    @Override
    public String toString() {
        return "GuardedJob[" + options.name() + " = " + describe(beanClass, method) + ", " + schedule.describe() + "]";
    }
}
