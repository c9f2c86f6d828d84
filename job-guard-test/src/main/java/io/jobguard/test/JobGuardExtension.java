package io.jobguard.test;

import io.jobguard.JobGuard;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.Set;

/**
 * A JUnit 5 extension that gives each test its own engine on a simulated store, closed after the test. Parameters of
 * type {@link JobGuardTester}, {@link JobGuard}, {@link SimulatedLeaseStore} and {@link MutableClock} (of test methods,
 * lifecycle methods and constructors) all belong to one {@link JobGuardTester#create()} per test.
 * Use it with {@link JobGuardTest @JobGuardTest} or {@code @ExtendWith(JobGuardExtension.class)}.
 */
public final class JobGuardExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(JobGuardExtension.class);
    private static final Set<Class<?>> RESOLVED = Set.of(JobGuardTester.class, JobGuard.class,
            SimulatedLeaseStore.class, MutableClock.class);

    /** Creates the extension; JUnit instantiates it. */
    public JobGuardExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return RESOLVED.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        // get and put rather than a compute method: JUnit 5 and 6 name theirs differently
        JobGuardTester tester = store.get(JobGuardTester.class, JobGuardTester.class);
        if (tester == null) {
            tester = JobGuardTester.create();
            store.put(JobGuardTester.class, tester);
        }
        Class<?> type = parameter.getParameter().getType();
        if (type == JobGuard.class) {
            return tester.guard();
        }
        if (type == SimulatedLeaseStore.class) {
            return tester.store();
        }
        return type == MutableClock.class ? tester.clock() : tester;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        JobGuardTester tester = context.getStore(NAMESPACE).remove(JobGuardTester.class, JobGuardTester.class);
        if (tester != null) {
            tester.close();
        }
    }
}
