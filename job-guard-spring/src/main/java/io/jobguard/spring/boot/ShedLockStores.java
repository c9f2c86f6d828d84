package io.jobguard.spring.boot;

import io.jobguard.shedlock.MarkerReaper;
import io.jobguard.shedlock.ShedLockLeaseStore;
import io.jobguard.store.LeaseStore;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.util.ClassUtils;

import java.time.Clock;
import java.time.Duration;

/**
 * Builds the store of {@code jobguard.store=shedlock}. ShedLock is an optional dependency, so its
 * types are touched only in the nested holder, loaded once ShedLock is known to be present.
 */
final class ShedLockStores {

    private static final String LOCK_PROVIDER = "net.javacrumbs.shedlock.core.LockProvider";

    private ShedLockStores() {
    }

    static LeaseStore create(ListableBeanFactory beanFactory) {
        if (!ClassUtils.isPresent(LOCK_PROVIDER, ShedLockStores.class.getClassLoader())) {
            throw new IllegalStateException("jobguard.store=shedlock but ShedLock is not on the classpath: add "
                    + "net.javacrumbs.shedlock:shedlock-core and a LockProvider bean, or choose jobguard.store=redis");
        }
        return Holder.create(beanFactory);
    }

    private static final class Holder {
        static LeaseStore create(ListableBeanFactory beanFactory) {
            LockProvider provider;
            try {
                provider = beanFactory.getBeanProvider(LockProvider.class).getIfAvailable();
            } catch (NoUniqueBeanDefinitionException e) {
                throw new IllegalStateException("jobguard.store=shedlock but the application has several "
                        + LOCK_PROVIDER + " beans " + e.getBeanNamesFound() + ": mark the one job-guard should use "
                        + "@Primary", e);
            }
            if (provider == null) {
                throw new IllegalStateException("jobguard.store=shedlock but the application has no " + LOCK_PROVIDER
                        + " bean: define one (for example a JdbcTemplateLockProvider) or choose jobguard.store=redis");
            }
            // A MarkerReaper bean (for example JdbcMarkerReaper on the lock table) keeps the table bounded.
            MarkerReaper reaper = beanFactory.getBeanProvider(MarkerReaper.class).getIfUnique();
            return reaper == null ? ShedLockLeaseStore.create(provider)
                    : ShedLockLeaseStore.create(provider, Clock.systemUTC(), Duration.ofSeconds(1), reaper);
        }
    }
}
