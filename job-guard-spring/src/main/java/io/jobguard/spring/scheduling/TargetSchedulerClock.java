package io.jobguard.spring.scheduling;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.annotation.BeanFactoryAnnotationUtils;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.scheduling.SchedulingAwareRunnable;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.config.TaskSchedulerRouter;

import java.time.Clock;

/**
 * Finds the clock of the scheduler that will actually run a task. Fire times must be computed on
 * that clock: a {@code ThreadPoolTaskScheduler} delays a one-shot task by its own clock, so a time
 * computed on another clock fires early or late by the difference.
 *
 * <p>Spring's {@link TaskSchedulerRouter} (the registrar's scheduler unless the application sets
 * one) reports the system clock but hands each task to another scheduler: the bean its
 * {@code @Scheduled(scheduler = "...")} qualifier names, else the context's default scheduler,
 * which the router looks up lazily: the unique {@link TaskScheduler} bean, else the one named
 * {@value TaskSchedulerRouter#DEFAULT_TASK_SCHEDULER_BEAN_NAME}. This class looks up the same bean
 * in the same order. When there is none (the router then wraps a {@code ScheduledExecutorService}
 * bean or its own executor in a {@code ConcurrentTaskScheduler}, which runs on the system clock),
 * or the lookup fails, the router's own clock is the answer.
 */
final class TargetSchedulerClock {

    private static final Logger log = LoggerFactory.getLogger(TargetSchedulerClock.class);

    private final BeanFactory beanFactory;

    /**
     * @param beanFactory where the router finds its target schedulers; null when unknown (then the
     *                    scheduler's own clock is used)
     */
    TargetSchedulerClock(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /**
     * The clock on which {@code scheduler} will delay {@code task}.
     *
     * @param scheduler the scheduler the task is handed to
     * @param task      the task (its qualifier, if any, selects the router's target)
     * @return the target scheduler's clock, else {@code scheduler}'s own
     */
    Clock of(TaskScheduler scheduler, Runnable task) {
        if (!(scheduler instanceof TaskSchedulerRouter) || beanFactory == null) {
            return scheduler.getClock();
        }
        String qualifier = qualifier(task);
        try {
            TaskScheduler target = qualifier.isEmpty() ? defaultScheduler()
                    : BeanFactoryAnnotationUtils.qualifiedBeanOfType(beanFactory, TaskScheduler.class, qualifier);
            if (target != null && target != scheduler) {
                return target.getClock();
            }
        } catch (BeansException e) {
            log.debug("job-guard: no TaskScheduler bean for {} ({}); fire times use the router's clock", task,
                    e.getMessage());
        }
        return scheduler.getClock();
    }

    private String qualifier(Runnable task) {
        String qualifier = task instanceof SchedulingAwareRunnable s ? s.getQualifier() : null;
        if (qualifier == null || qualifier.isEmpty()) {
            return "";
        }
        if (beanFactory instanceof ConfigurableBeanFactory configurable) {
            qualifier = new EmbeddedValueResolver(configurable).resolveStringValue(qualifier);
        }
        return qualifier == null ? "" : qualifier;
    }

    private TaskScheduler defaultScheduler() {
        try {
            if (beanFactory instanceof AutowireCapableBeanFactory autowiring) {
                return autowiring.resolveNamedBean(TaskScheduler.class).getBeanInstance();
            }
            return beanFactory.getBean(TaskScheduler.class);
        } catch (NoUniqueBeanDefinitionException e) {
            return beanFactory.getBean(TaskSchedulerRouter.DEFAULT_TASK_SCHEDULER_BEAN_NAME, TaskScheduler.class);
        }
    }
}
