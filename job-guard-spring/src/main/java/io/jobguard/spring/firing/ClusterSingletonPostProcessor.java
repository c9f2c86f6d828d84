package io.jobguard.spring.firing;

import io.jobguard.ClusterSingleton;
import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.internal.options.OptionSources;
import io.jobguard.spring.observation.RunObservationConvention;
import io.jobguard.spring.observation.RunObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Makes each call of a {@link ClusterSingleton @ClusterSingleton} method one {@link JobGuard#fire firing} of the
 * engine (admitted, run, finished when the method's work ends, its outcome recorded once), by proxying its bean.
 * It finds those methods on every bean and validates them: startup fails naming the method when one is not
 * {@code @Scheduled}, is reactive, has a bad duration or reuses a job name. Runs before Spring's {@code @Scheduled} post-processor, so scheduled
 * runnables invoke the proxy. Registered by {@code @EnableJobGuard} and the Boot auto-configuration.
 */
public final class ClusterSingletonPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

    private static final long serialVersionUID = 1L;

    private final transient GuardedJobRegistry registry;
    private final transient ObjectProvider<JobGuard> guard;
    private final transient BiFunction<JobOptions, Method, JobOptions> customizers;
    private transient GuardedMethodResolver resolver;
    private transient FireTimeHandOff fireTimeHandOff;

    /**
     * Creates the post-processor.
     *
     * @param registry    where guarded methods are recorded
     * @param guard       the engine (looked up when the first guarded bean appears)
     * @param customizers adjusts each job's options at startup (the application's
     *                    {@code JobOptionsCustomizer}s, applied in order)
     */
    public ClusterSingletonPostProcessor(GuardedJobRegistry registry, ObjectProvider<JobGuard> guard,
                                         BiFunction<JobOptions, Method, JobOptions> customizers) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.customizers = Objects.requireNonNull(customizers, "customizers");
        setBeforeExistingAdvisors(true);
        setProxyTargetClass(true);
        // before ScheduledAnnotationBeanPostProcessor (LOWEST_PRECEDENCE): its runnables must call the proxy
        setOrder(Ordered.LOWEST_PRECEDENCE - 10);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        super.setBeanFactory(beanFactory);
        EmbeddedValueResolver values = beanFactory instanceof ConfigurableBeanFactory cbf
                ? new EmbeddedValueResolver(cbf) : null;
        this.resolver = new GuardedMethodResolver(values, this::engine,
                () -> beanFactory.getBeanProvider(OptionSources.class).getIfAvailable(() -> OptionSources.NONE),
                customizers);
        RunObservations observations = new RunObservations(
                () -> beanFactory.getBeanProvider(ObservationRegistry.class).getIfAvailable(() -> ObservationRegistry.NOOP),
                () -> beanFactory.getBeanProvider(RunObservationConvention.class).getIfAvailable(RunObservationConvention::new));
        this.fireTimeHandOff = new FireTimeHandOff();
        // every @ClusterSingleton method gets the interceptor (Spring's plain advisor: a pointcut and the advice)
        this.advisor = new DefaultPointcutAdvisor(AnnotationMatchingPointcut.forMethodAnnotation(ClusterSingleton.class),
                new ClusterSingletonInterceptor(registry, fireTimeHandOff, this::engine, observations));
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        if (bean instanceof AopInfrastructureBean) {
            return bean;
        }
        Class<?> userClass = ClassUtils.getUserClass(AopUtils.getTargetClass(bean));
        GuardableMethods.checkNotOnClass(userClass, beanName);
        if (AnnotationUtils.isCandidateClass(userClass, ClusterSingleton.class)) {
            Map<Method, ClusterSingleton> methods = MethodIntrospector.selectMethods(userClass,
                    (MethodIntrospector.MetadataLookup<ClusterSingleton>) m ->
                            AnnotatedElementUtils.findMergedAnnotation(m, ClusterSingleton.class));
            List<GuardedJob> jobs = methods.entrySet().stream()
                    .map(e -> resolver.resolve(userClass, e.getKey(), e.getValue()))
                    .toList();
            jobs.forEach(job -> {
                job.beanName(beanName);
                registry.register(job);
            });
        }
        return super.postProcessAfterInitialization(bean, beanName);
    }

    /**
     * The registry this post-processor fills.
     *
     * @return the guarded methods found so far
     */
    GuardedJobRegistry registry() {
        return registry;
    }

    /**
     * Carries the nominal fire times of scheduled firings to this post-processor's advice (available
     * once the bean factory is set).
     *
     * @return the fire times the scheduler decorator attaches and the advice takes
     */
    FireTimeHandOff fireTimeHandOff() {
        return fireTimeHandOff;
    }

    private JobGuard engine() {
        JobGuard engine = guard.getIfAvailable();
        if (engine == null) {
            throw new IllegalStateException("job-guard found @ClusterSingleton methods but no JobGuard bean: define "
                    + "one (JobGuard.create(RedisLeaseStore.create(connectionFactory), config)) or use the Spring Boot "
                    + "auto-configuration with a RedisConnectionFactory");
        }
        return engine;
    }
}
