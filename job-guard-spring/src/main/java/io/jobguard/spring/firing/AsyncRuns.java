package io.jobguard.spring.firing;

import io.jobguard.Fired;
import io.jobguard.FiringBody;
import io.jobguard.FiringEnd;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Guarded methods whose work ends after they return: a {@code CompletionStage}
 * ({@code CompletableFuture}) or a Reactor {@code Mono}/{@code Flux}. The lease is held (and kept
 * alive) until the returned work completes, fails or is cancelled, not released when the method
 * returns.
 *
 * <p>Spring invokes a reactive {@code @Scheduled} method once, when it registers it, and subscribes
 * to the returned publisher at every firing. So for Reactor types the method call itself is not
 * guarded: the returned publisher is wrapped so that each subscription is one
 * {@link JobGuard#fire firing} (the scheduled firing whose fire time the subscribing thread carries,
 * else a direct subscription's own fire time) and, if admitted, subscribes to the method's publisher
 * while holding the lease; a refused firing completes empty. A recovery run of a reactive method
 * subscribes to its publisher and waits for it to complete.
 */
final class AsyncRuns {

    private static final boolean REACTOR = ClassUtils.isPresent("reactor.core.publisher.Mono",
            AsyncRuns.class.getClassLoader());

    /**
     * The firing one subscription is.
     *
     * @param guard           the engine
     * @param options         the job's options, with its recovery (the same for a scheduled and a direct subscription)
     * @param nominalFireTime the nominal fire time
     */
    record Subscription(JobGuard guard, JobOptions options, Instant nominalFireTime) {
    }

    private AsyncRuns() {
    }

    /** Whether the method returns a Reactor type whose subscriptions must be guarded. */
    static boolean reactor(Class<?> returnType) {
        return REACTOR && Reactor.handles(returnType);
    }

    /** Whether the method returns a {@code CompletionStage}. */
    static boolean completionStage(Class<?> returnType) {
        return CompletionStage.class.isAssignableFrom(returnType);
    }

    /** Wraps a Reactor publisher so that every subscription is one guarded firing. */
    static Object guardSubscriptions(Object publisher, Supplier<Subscription> subscription) {
        return Reactor.guard(publisher, subscription);
    }

    /** Loaded only when Reactor is on the classpath. */
    private static final class Reactor {

        static boolean handles(Class<?> type) {
            return Mono.class.isAssignableFrom(type) || Flux.class.isAssignableFrom(type);
        }

        static Object guard(Object publisher, Supplier<Subscription> subscription) {
            if (publisher instanceof Mono<?> mono) {
                return Mono.defer(() -> fire(subscription.get(), Mono.empty(),
                        end -> new Ending(end).hold(mono), mono::block));
            }
            if (publisher instanceof Flux<?> flux) {
                return Flux.defer(() -> fire(subscription.get(), Flux.empty(),
                        end -> new Ending(end).hold(flux), flux::blockLast));
            }
            return publisher;
        }

        /**
         * One subscription's firing: when admitted, the publisher {@code held} makes (subscribed to under the
         * permit, unbound from the subscribing thread); when refused, {@code refused}.
         */
        private static <P> P fire(Subscription s, P refused, Function<FiringEnd, P> held, Runnable recoveryRun) {
            Fired<P> fired;
            try {
                fired = s.guard().fire(s.options(), s.nominalFireTime(), FiringBody.ofCallback(end -> {
                    end.unbindFromCurrentThread();
                    return held.apply(end);
                }, recoveryRun));
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                // the callback only assembles the publisher and throws nothing checked
                throw new UndeclaredThrowableException(e);
            }
            return fired.started() ? fired.value() : refused;
        }
    }

    /**
     * Ends one admitted subscription's firing when the subscription completes, fails or is cancelled.
     * Loaded only with Reactor.
     */
    private static final class Ending {

        private final FiringEnd end;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Ending(FiringEnd end) {
            this.end = end;
        }

        <T> Mono<T> hold(Mono<T> mono) {
            return mono.doOnError(failure::set).doFinally(this::finish);
        }

        <T> Flux<T> hold(Flux<T> flux) {
            return flux.doOnError(failure::set).doFinally(this::finish);
        }

        private void finish(SignalType signal) {
            end.end(signal == SignalType.CANCEL ? new CancellationException("subscription cancelled") : failure.get());
        }
    }
}
