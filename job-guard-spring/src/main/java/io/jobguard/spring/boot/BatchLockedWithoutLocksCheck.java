package io.jobguard.spring.boot;

import io.jobguard.BatchLocked;
import io.jobguard.batch.BatchLocks;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Fails startup when a bean has {@link BatchLocked} methods but the context has no
 * {@link BatchLocks} (no Redis, {@code jobguard.batch.enabled=false}, or a store without batch
 * support): without it the advisor is absent and those methods would run unlocked.
 *
 * @param beanFactory the context's bean factory, whose beans are checked
 * @param store       the configured store ({@code jobguard.store}), named in the failure
 */
record BatchLockedWithoutLocksCheck(ConfigurableListableBeanFactory beanFactory, String store)
        implements SmartInitializingSingleton {

    @Override
    public void afterSingletonsInstantiated() {
        if (beanFactory.getBeanNamesForType(BatchLocks.class, true, false).length > 0) {
            return;
        }
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanFactory.getType(name, false);
            if (type == null) {
                continue;
            }
            Class<?> user = ClassUtils.getUserClass(type);
            ReflectionUtils.doWithMethods(user, method -> {
                throw new IllegalStateException("@BatchLocked method " + user.getName() + "." + method.getName()
                        + " needs batch locks, but the context has no BatchLocks bean (jobguard.store=" + store
                        + "; batch locks need a RedisConnectionFactory and jobguard.batch.enabled=true): "
                        + "it would run unlocked");
            }, method -> AnnotatedElementUtils.hasAnnotation(method, BatchLocked.class));
        }
    }
}
