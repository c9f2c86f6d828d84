package io.jobguard.spring;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.Phased;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.util.function.BiConsumer;

/**
 * A shutdown step that runs before the application's Redis connection factories stop: a higher
 * lifecycle phase stops earlier, so the step's phase is a given number of phases above the
 * latest-stopping factory's. Lettuce's factory tears its connections down in its stop phase, before
 * any bean is destroyed, so whatever must still talk to Redis at shutdown runs here.
 */
abstract class StopsBeforeRedis implements SmartLifecycle {

    private final ConfigurableListableBeanFactory beanFactory;
    private final int phasesAbove;
    private volatile boolean running;
    private volatile boolean stopped;

    /**
     * @param beanFactory the context's bean factory
     * @param phasesAbove how many phases above the latest-stopping connection factory this step stops
     */
    StopsBeforeRedis(ConfigurableListableBeanFactory beanFactory, int phasesAbove) {
        this.beanFactory = beanFactory;
        this.phasesAbove = phasesAbove;
    }

    /** The step itself, run once when the context stops. */
    abstract void beforeRedisStops();

    /** Undoes the step when a stopped context is started again (nothing by default). */
    void afterRestart() {
    }

    @Override
    public final void start() {
        boolean restart = stopped;
        running = true;
        if (restart) {
            afterRestart();
        }
    }

    @Override
    public final void stop() {
        running = false;
        stopped = true;
        beforeRedisStops();
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    /** {@code phasesAbove} phases higher than the latest-stopping connection factory's, capped at {@link Integer#MAX_VALUE}. */
    @Override
    public final int getPhase() {
        int phase = 0;
        for (String name : beanFactory.getBeanNamesForType(RedisConnectionFactory.class, false, false)) {
            Object bean = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
            if (bean instanceof Phased phased) {
                phase = Math.max(phase, phased.getPhase());
            }
        }
        return phase > Integer.MAX_VALUE - phasesAbove ? Integer.MAX_VALUE : phase + phasesAbove;
    }

    /**
     * Hands each singleton of the type that was already created to {@code action}, with its bean name;
     * creates none (a lazy bean nobody asked for stays uncreated).
     */
    final <T> void forEachCreated(Class<T> type, BiConsumer<String, T> action) {
        for (String name : beanFactory.getSingletonNames()) {
            Object bean = beanFactory.getSingleton(name);
            if (type.isInstance(bean)) {
                action.accept(name, type.cast(bean));
            }
        }
    }
}
