package io.jobguard;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The work of one firing, which ends the firing exactly once, through the {@link FiringEnd} it is given.
 * {@link JobGuard#fire} runs it once the fire time is admitted, on the admitted thread under the firing's permit.
 * Three shapes:
 * <ul>
 *   <li>{@link #of(Work) synchronous}: the firing ends when the work returns or throws;</li>
 *   <li>{@link #ofCompletionStage(Work) completion stage}: when the work returns a
 *       {@code CompletionStage}, the firing ends when the stage completes (the lease is held and
 *       kept alive until then), otherwise when the work returns;</li>
 *   <li>{@link #ofCallback(Start, Runnable) callback}: the work ends the firing itself, on any
 *       thread, at any time after it started (a reactive subscription, a coroutine, a Quartz job
 *       whose end another callback reports).</li>
 * </ul>
 * A body also says what a recovery run is (a catch-up of a missed fire time or a retry of a dead
 * run, which the job's {@link JobOptions#recovery()} may ask for before the regular run): by
 * default the same work, run to its end on the calling thread. Immutable.
 *
 * @param <R> what the work returns to the caller of {@link JobGuard#fire}
 */
public final class FiringBody<R> {

    /**
     * Work that returns a value or throws.
     *
     * @param <R> the value
     */
    @FunctionalInterface
    public interface Work<R> {
        /**
         * Does the work.
         *
         * @return the value
         * @throws Throwable what the work throws
         */
        R run() throws Throwable;
    }

    /**
     * Work that ends its firing itself.
     *
     * @param <R> what it returns to the caller
     */
    @FunctionalInterface
    public interface Start<R> {
        /**
         * Starts the work on the admitted thread. The firing ends when {@code end} is called (once;
         * later calls do nothing); if this method throws, the firing ends with what it threw.
         *
         * @param end ends the firing
         * @return what the caller of {@link JobGuard#fire} gets back
         * @throws Throwable what the work throws while it starts
         */
        R start(FiringEnd end) throws Throwable;
    }

    private final Start<R> start;
    private final Runnable recoveryRun;

    private FiringBody(Start<R> start, Runnable recoveryRun) {
        this.start = Objects.requireNonNull(start, "start");
        this.recoveryRun = Objects.requireNonNull(recoveryRun, "recoveryRun");
    }

    /**
     * Work whose firing ends when it returns or throws.
     *
     * @param work the job's work
     * @param <R>  its value
     * @return the body
     */
    public static <R> FiringBody<R> of(Work<R> work) {
        Objects.requireNonNull(work, "work");
        return new FiringBody<>(end -> {
            R value;
            try {
                value = work.run();
            } catch (Throwable e) {
                end.end(e);
                throw e;
            }
            end.end(null);
            return value;
        }, unchecked(work));
    }

    /**
     * Work whose firing ends when the {@code CompletionStage} it returns completes (or when it
     * returns anything else, or throws). The run's context is unbound from the admitted thread once
     * the work returns: the work goes on elsewhere. A recovery run ends when the work returns.
     *
     * @param work the job's work, usually returning a {@code CompletionStage}
     * @param <R>  its value
     * @return the body
     */
    public static <R> FiringBody<R> ofCompletionStage(Work<R> work) {
        Objects.requireNonNull(work, "work");
        return new FiringBody<>(end -> {
            R value = work.run();
            end.unbindFromCurrentThread();
            if (value instanceof CompletionStage<?> stage) {
                stage.whenComplete((result, failure) -> end.end(unwrap(failure)));
            } else {
                end.end(null);
            }
            return value;
        }, unchecked(work));
    }

    /**
     * Work that ends its firing itself, with the work of a recovery run given apart.
     *
     * @param start       starts the regular run's work
     * @param recoveryRun the work of one recovery run, run to its end on the calling thread (what it
     *                    throws is its run's failure)
     * @param <R>         what {@code start} returns
     * @return the body
     */
    public static <R> FiringBody<R> ofCallback(Start<R> start, Runnable recoveryRun) {
        return new FiringBody<>(start, recoveryRun);
    }

    /**
     * This body with another recovery run (for work that can run only once, such as one method
     * invocation: each recovery run then makes its own).
     *
     * @param recoveryRun the work of one recovery run, run to its end on the calling thread
     * @return a new body
     */
    public FiringBody<R> withRecoveryRun(Runnable recoveryRun) {
        return new FiringBody<>(start, recoveryRun);
    }

    /**
     * Starts the regular run; called by the engine once the fire time is admitted, never by applications.
     *
     * @param end ends the firing
     * @return what the work returned
     * @throws Throwable what the work threw while it started
     */
    public R start(FiringEnd end) throws Throwable {
        return start.start(end);
    }

    /**
     * Returns the work of one recovery run.
     *
     * @return the work, run to its end on the calling thread
     */
    public Runnable recoveryRun() {
        return recoveryRun;
    }

    private static Runnable unchecked(Work<?> work) {
        return () -> {
            try {
                work.run();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new UndeclaredThrowableException(e);
            }
        };
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
