package io.jobguard.spring.firing;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;

import java.lang.reflect.UndeclaredThrowableException;

/** The recovery runs (missed fire times, dead runs) of a guarded method: each a fresh pass through the rest of the advice chain. */
final class RecoveryBodies {

    private RecoveryBodies() {
    }

    /** One recovery run of the method this invocation calls, run to its end on the calling thread. */
    static Runnable of(MethodInvocation invocation) {
        return () -> proceed(invocation);
    }

    private static void proceed(MethodInvocation invocation) {
        try {
            // a clone: the original invocation still has to run the regular firing afterwards
            MethodInvocation again = invocation instanceof ProxyMethodInvocation proxy ? proxy.invocableClone()
                    : invocation;
            again.proceed();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new UndeclaredThrowableException(e);
        }
    }
}
