package io.jobguard.spring.firing;

import io.jobguard.JobOptions;
import org.springframework.scheduling.TaskScheduler;

import java.lang.reflect.Method;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code @ClusterSingleton @Scheduled} method of one bean class, resolved at startup, whose one
 * {@link JobOptions} guards every firing of the method. Those options (with its recovery of lost fire times) serve
 * its scheduled firings, its direct calls and its background recovery alike. It also holds its schedule, the clock
 * of the scheduler that drives it and whether its task went through job-guard's scheduler. The options and the
 * schedule are
 * fixed at creation; each mutable part has one writer: the trigger (clock), the scheduler decorator
 * (routed) and the post-processor (bean name); the outcome of its firings is the engine's
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
    private volatile boolean routed;
    private volatile TaskScheduler runsOn;
    private volatile String beanName;

    /**
     * Describes a guarded method.
     *
     * @param beanClass the user class of the bean
     * @param method    the guarded method
     * @param options   the job's options, with its recovery of lost fire times if it has one
     * @param schedule  the resolved schedule
     * @param clock     the clock to read "now" with until the scheduler tells its own
     */
    public GuardedJob(Class<?> beanClass, Method method, JobOptions options, ScheduleSpec schedule, Clock clock) {
        this.beanClass = Objects.requireNonNull(beanClass, "beanClass");
        this.method = Objects.requireNonNull(method, "method");
        this.options = Objects.requireNonNull(options, "options");
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.clock = Objects.requireNonNull(clock, "clock");
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

    /**
     * The options every firing of the method is guarded with, scheduled or a direct call: resolved and
     * customized at startup, with the job's recovery of lost fire times ({@link JobOptions#recovery()}) if
     * it has one.
     *
     * @return the job's options
     */
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
     * (checked at startup: a job whose task went around it is not guarded by its fire times), and the
     * scheduler that runs it.
     *
     * @param runsOn the scheduler that runs the job's firings
     */
    public void markRouted(TaskScheduler runsOn) {
        this.runsOn = runsOn;
        this.routed = true;
    }

    /** @return the scheduler that runs the job's firings, empty before its task was scheduled */
    public Optional<TaskScheduler> runsOn() {
        return Optional.ofNullable(runsOn);
    }

    /** @return whether job-guard's scheduler received this job's scheduled task */
    public boolean routed() {
        return routed;
    }

    @Override
    public String toString() {
        return "GuardedJob[" + options.name() + " = " + describe(beanClass, method) + ", " + schedule.describe() + "]";
    }
}
