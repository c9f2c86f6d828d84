package io.jobguard.spring.actuator;

import io.jobguard.shedlock.JobGuardLockProvider;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Reads the held locks of {@link JobGuardLockProvider} beans; touches ShedLock types only when ShedLock is present. */
final class ShedLockHeldLocks {

    private ShedLockHeldLocks() {
    }

    static Supplier<List<EndpointSources.HeldLock>> of(ListableBeanFactory beanFactory) {
        if (!ClassUtils.isPresent("net.javacrumbs.shedlock.core.LockProvider", ShedLockHeldLocks.class.getClassLoader())) {
            return List::of;
        }
        return Holder.of(beanFactory);
    }

    private static final class Holder {
        static Supplier<List<EndpointSources.HeldLock>> of(ListableBeanFactory beanFactory) {
            return () -> {
                List<EndpointSources.HeldLock> out = new ArrayList<>();
                beanFactory.getBeanProvider(JobGuardLockProvider.class).orderedStream()
                        .forEach(p -> p.heldLocks().forEach(h -> out.add(new EndpointSources.HeldLock(h.name(),
                                h.nodeId(), h.lockedAt(), h.lockAtMostUntil(), h.lockAtLeastUntil()))));
                return out;
            };
        }
    }
}
