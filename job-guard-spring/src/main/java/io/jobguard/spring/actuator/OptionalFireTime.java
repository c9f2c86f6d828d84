package io.jobguard.spring.actuator;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.OperationArgumentResolver;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

import java.util.HashMap;
import java.util.Map;

/**
 * Makes the {@code fireTime} argument of the {@code jobguard} endpoint's write operation optional, on Boot 3.5 and 4.x
 * alike: a request without it (pause, resume, run-now) reaches the operation with {@code ""} instead of Boot's HTTP
 * 400 for a missing parameter. Boot marks a parameter optional only by a nullable annotation, and the one Boot 3.5
 * reads ({@code org.springframework.lang.Nullable}) is deprecated in Spring 7, while Boot 4 reads any other
 * {@code @Nullable}; this advisor, which both versions apply to every operation they discover, needs neither. It hands
 * the operation a copy of the call's arguments with the default, every other argument (the caller's security context
 * included) resolved by the original call.
 */
final class OptionalFireTime implements OperationInvokerAdvisor {

    /** The operation parameter this advisor defaults. */
    static final String PARAMETER = "fireTime";

    @Override
    public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
                                  OperationInvoker invoker) {
        if (!endpointId.equals(JobGuardEndpoint.ID) || operationType != OperationType.WRITE
                || parameters.stream().noneMatch(p -> p.getName().equals(PARAMETER))) {
            return invoker;
        }
        return context -> invoker.invoke(context.getArguments().get(PARAMETER) != null ? context : withDefault(context));
    }

    private static InvocationContext withDefault(InvocationContext context) {
        Map<String, Object> arguments = new HashMap<>(context.getArguments());
        arguments.put(PARAMETER, "");
        return new InvocationContext(context.resolveArgument(SecurityContext.class), arguments,
                new OperationArgumentResolver() {
                    @Override
                    public boolean canResolve(Class<?> type) {
                        return context.canResolve(type);
                    }

                    @Override
                    public <T> T resolve(Class<T> type) {
                        return context.resolveArgument(type);
                    }
                });
    }
}
