package io.jobguard.spring.firing;

import kotlin.coroutines.Continuation;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.reactor.MonoKt;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.core.CoroutinesUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Guarded Kotlin {@code suspend} methods. Called from Java, a suspend function returns as soon as
 * the coroutine first suspends, long before its work ends; releasing the lease then would let
 * another node run the same fire time while this one still works. So the guarded call does not
 * proceed down the interceptor chain: it runs the target's suspend function as a publisher (Spring's
 * {@code CoroutinesUtils}, in the caller's coroutine context), finishes the permit when that
 * publisher completes, fails or is cancelled, and suspends the caller until then
 * ({@code awaitSingleOrNull}). The lease is therefore held, and kept alive, until the coroutine
 * completes. Loaded only for suspend methods, which {@link GuardedMethodResolver} accepts only when
 * {@code kotlinx-coroutines-reactor} is on the classpath.
 */
final class SuspendingRuns {

    private SuspendingRuns() {
    }

    /**
     * Runs the suspend method of the invocation under an admitted permit.
     *
     * @param finish called once, when the coroutine completes (with {@code null}), fails (with its
     *               exception) or is cancelled (with a {@link CancellationException})
     * @return what the suspend function returns to its Java caller: the result, or the coroutine
     *         suspension marker
     */
    static Object proceed(MethodInvocation invocation, Consumer<Throwable> finish) {
        Object[] args = invocation.getArguments();
        @SuppressWarnings("unchecked")
        Continuation<Object> caller = (Continuation<Object>) args[args.length - 1];
        Object[] plainArgs = Arrays.copyOf(args, args.length - 1);
        Mono<Object> work;
        try {
            work = asMono(CoroutinesUtils.invokeSuspendingFunction(
                    // the caller's context without its Job: the publisher's coroutine gets its own, and
                    // awaiting it ties the two together (cancelling the caller cancels the subscription)
                    caller.getContext().minusKey(Job.Key), invocation.getMethod(),
                    invocation.getThis(), plainArgs));
        } catch (RuntimeException | Error e) {
            finish.accept(e);
            throw e;
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Mono<Object> held = work.doOnError(failure::set).doFinally(signal -> finish.accept(
                signal == SignalType.CANCEL ? new CancellationException("coroutine cancelled") : failure.get()));
        return MonoKt.awaitSingleOrNull(held, caller);
    }

    @SuppressWarnings("unchecked")
    private static Mono<Object> asMono(Object publisher) {
        // a suspend function returning a Flow comes back as a Flux: the run lasts until it completes
        return publisher instanceof Mono<?> mono ? (Mono<Object>) mono
                : Flux.from((org.reactivestreams.Publisher<Object>) publisher).then(Mono.empty());
    }
}
