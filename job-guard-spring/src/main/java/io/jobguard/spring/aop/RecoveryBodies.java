package io.jobguard.spring.aop;

import io.jobguard.Admission;
import io.jobguard.MissedFireTimes;
import io.jobguard.spring.internal.GuardedJob;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Instant;

/** The recovery runs (missed fire times, dead runs) of a guarded method: each a fresh pass through the rest of the advice chain. */
final class RecoveryBodies {

    private RecoveryBodies() {
    }

    static Admission admit(MissedFireTimes missed, GuardedJob job, Instant fireTime, MethodInvocation invocation) {
        return missed.admit(job.options(), job.recovery(), fireTime, () -> proceed(invocation));
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
