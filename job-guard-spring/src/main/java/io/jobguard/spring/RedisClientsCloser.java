package io.jobguard.spring;

import io.jobguard.redis.RedisBatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Closes job-guard's Redis clients (the lease store's and batch locks' release subscriptions)
 * just before the application's {@link RedisConnectionFactory} stops. Lettuce's factory is a
 * lifecycle bean that tears its connection pool down in the stop phase, before any bean is
 * destroyed; a subscription closed later would hand its connection back to a dead pool, which
 * Spring Data Redis logs as a {@code PoolException} WARN. Nothing is lost by closing a step early:
 * the factory is unusable right after.
 *
 * <p>Only beans already created are closed (a lazy {@code BatchLocks} nobody asked for stays
 * uncreated); closing twice is harmless, so the beans' own destroy methods still run.
 */
final class RedisClientsCloser implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RedisClientsCloser.class);

    private final ConfigurableListableBeanFactory beanFactory;
    private volatile boolean running;

    RedisClientsCloser(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        for (String name : beanFactory.getSingletonNames()) {
            Object bean = beanFactory.getSingleton(name);
            try {
                if (bean instanceof RedisLeaseStore store) {
                    store.close();
                } else if (bean instanceof RedisBatchLocks locks) {
                    locks.close();
                }
            } catch (RuntimeException e) {
                log.debug("job-guard: closing {} before the Redis connection factory stops failed", name, e);
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** One phase above the latest-stopping connection factory, so this stops first. */
    @Override
    public int getPhase() {
        return ConnectionFactoryPhases.above(beanFactory, 1);
    }
}
