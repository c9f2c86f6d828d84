package io.jobguard.spring.aop;

import io.jobguard.Admission;
import io.jobguard.JobPermit;
import io.jobguard.RunOutcome;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
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
 * guarded: the returned publisher is wrapped so that each subscription decides its own firing (the
 * scheduled firing the subscribing thread was admitted for, else a direct subscription's own
 * admission) and, if admitted, subscribes to the method's publisher while holding the lease; a
 * refused firing completes empty.
 */
final class AsyncRuns {

    private static final boolean REACTOR = ClassUtils.isPresent("reactor.core.publisher.Mono",
            AsyncRuns.class.getClassLoader());

    /** One firing's decision. */
    record Decision(Instant fireTime, Admission admission) {
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

    /**
     * Finishes the permit when the stage completes; the returned stage completes after that.
     * The permit's run context is unbound from the calling thread at once (the work runs elsewhere).
     */
    static Object holdUntilComplete(Object returned, JobPermit permit, Instant fireTime,
                                    BiConsumer<Instant, RunOutcome> record) {
        permit.unbindFromCurrentThread();
        if (!(returned instanceof CompletionStage<?> stage)) {
            record.accept(fireTime, permit.finish(null));
            return returned;
        }
        stage.whenComplete((value, failure) -> record.accept(fireTime, permit.finish(unwrap(failure))));
        return returned;
    }

    /** Wraps a Reactor publisher so that every subscription is one guarded firing. */
    static Object guardSubscriptions(Object publisher, Supplier<Decision> decide,
                                     BiConsumer<Instant, RunOutcome> record) {
        return Reactor.guard(publisher, decide, record);
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** Loaded only when Reactor is on the classpath. */
    private static final class Reactor {

        static boolean handles(Class<?> type) {
            return Mono.class.isAssignableFrom(type) || Flux.class.isAssignableFrom(type);
        }

        static Object guard(Object publisher, Supplier<Decision> decide, BiConsumer<Instant, RunOutcome> record) {
            if (publisher instanceof Mono<?> mono) {
                return Mono.defer(() -> Held.start(decide, record, Mono.empty(),
                        held -> mono.doOnError(held::failed).doFinally(held::finish)));
            }
            if (publisher instanceof Flux<?> flux) {
                return Flux.defer(() -> Held.start(decide, record, Flux.empty(),
                        held -> flux.doOnError(held::failed).doFinally(held::finish)));
            }
            return publisher;
        }
    }

    /**
     * One admitted subscription of a Reactor publisher: its permit, unbound from the subscribing
     * thread, is finished when the subscription completes, fails or is cancelled. Loaded only with
     * Reactor.
     */
    private static final class Held {

        private final Decision decision;
        private final BiConsumer<Instant, RunOutcome> record;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private Held(Decision decision, BiConsumer<Instant, RunOutcome> record) {
            this.decision = decision;
            this.record = record;
        }

        /**
         * Decides one subscription's firing: a refused one is recorded and answered with {@code refused};
         * an admitted one is subscribed to through {@code subscribe}, under the permit.
         */
        static <P> P start(Supplier<Decision> decide, BiConsumer<Instant, RunOutcome> record, P refused,
                           Function<Held, P> subscribe) {
            Decision d = decide.get();
            if (!d.admission().granted()) {
                record.accept(d.fireTime(), d.admission().refusal());
                return refused;
            }
            d.admission().permit().unbindFromCurrentThread();
            return subscribe.apply(new Held(d, record));
        }

        void failed(Throwable error) {
            failure.set(error);
        }

        void finish(SignalType signal) {
            Throwable f = signal == SignalType.CANCEL ? new CancellationException("subscription cancelled")
                    : failure.get();
            record.accept(decision.fireTime(), decision.admission().permit().finish(f));
        }
    }
}
