package io.jobguard.spring;

import io.jobguard.redis.batch.RedisBatchLocks;
import io.jobguard.redis.RedisLeaseStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
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
final class RedisClientsCloser extends StopsBeforeRedis {

    private static final Logger log = LoggerFactory.getLogger(RedisClientsCloser.class);

    /** One phase above the latest-stopping connection factory, so this stops first. */
    RedisClientsCloser(ConfigurableListableBeanFactory beanFactory) {
        super(beanFactory, 1);
    }

    @Override
    void beforeRedisStops() {
        forEachCreated(RedisLeaseStore.class, (name, store) -> close(name, store::close));
        forEachCreated(RedisBatchLocks.class, (name, locks) -> close(name, locks::close));
    }

    private static void close(String name, Runnable close) {
        try {
            close.run();
        } catch (RuntimeException e) {
            log.debug("job-guard: closing {} before the Redis connection factory stops failed", name, e);
        }
    }
}
