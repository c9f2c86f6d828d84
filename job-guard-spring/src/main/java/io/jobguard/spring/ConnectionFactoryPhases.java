package io.jobguard.spring;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.Phased;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Lifecycle phases relative to the Redis connection factories: job-guard's shutdown steps must stop
 * before the factory they talk through (a higher phase stops earlier).
 */
final class ConnectionFactoryPhases {

    private ConnectionFactoryPhases() {
    }

    /**
     * The phase {@code above} phases higher than the latest-stopping connection factory's, capped at
     * {@link Integer#MAX_VALUE}.
     *
     * @param beanFactory the context's bean factory (factories not yet created are not created here)
     * @param above       how many phases above
     * @return the phase
     */
    static int above(ConfigurableListableBeanFactory beanFactory, int above) {
        int phase = 0;
        for (String name : beanFactory.getBeanNamesForType(RedisConnectionFactory.class, false, false)) {
            Object bean = beanFactory.containsSingleton(name) ? beanFactory.getSingleton(name) : null;
            if (bean instanceof Phased phased) {
                phase = Math.max(phase, phased.getPhase());
            }
        }
        return phase > Integer.MAX_VALUE - above ? Integer.MAX_VALUE : phase + above;
    }
}
