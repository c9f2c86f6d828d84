package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.Aware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

import java.io.Closeable;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;

/**
 * For every bean with {@link BatchLocked @BatchLocked} methods, registers at build time what
 * {@link BatchLockedInterceptor} needs of it in a native image: each annotated method for invocation (the advice
 * chain calls the target reflectively, and the keys' SpEL names the arguments by the method's parameter names),
 * reflection on the types of its parameters and everything they hold (SpEL reads the keys out of the arguments,
 * e.g. {@code #orders.![id]}, through their accessors), and the JDK proxy Spring makes of the bean when it
 * implements interfaces and proxies are not class-based ({@code spring.aop.proxy-target-class=false}; with
 * class-based proxies, Boot's default, Spring AOT generates the CGLIB proxy class itself). Listed in
 * job-guard-spring's {@code META-INF/spring/aot.factories}; Spring instantiates it through that file only.
 */
final class BatchLockedAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> type = ClassUtils.getUserClass(registeredBean.getBeanClass());
        if (!AnnotationUtils.isCandidateClass(type, BatchLocked.class)) {
            return null;
        }
        Set<Method> methods = MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<BatchLocked>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, BatchLocked.class)).keySet();
        if (methods.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> register(generationContext.getRuntimeHints(), type, methods);
    }

    private static void register(RuntimeHints hints, Class<?> type, Set<Method> methods) {
        BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();
        for (Method method : methods) {
            hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
            bindings.registerReflectionHints(hints.reflection(), method.getGenericParameterTypes());
        }
        Class<?>[] interfaces = ClassUtils.getAllInterfacesForClass(type, type.getClassLoader());
        boolean proxiable = Arrays.stream(interfaces).anyMatch(BatchLockedAotProcessor::isReasonableProxyInterface)
                && Arrays.stream(interfaces).noneMatch(Class::isSealed);
        if (proxiable) {
            // the same interfaces, in the same order, as a JDK proxy of this bean implements
            hints.proxies().registerJdkProxy(AopProxyUtils.completeJdkProxyInterfaces(interfaces));
        }
    }

    /** As Spring's ProxyProcessorSupport decides: not a container callback, not a language's own interface. */
    private static boolean isReasonableProxyInterface(Class<?> ifc) {
        boolean callback = ifc == InitializingBean.class || ifc == DisposableBean.class || ifc == Closeable.class
                || ifc == AutoCloseable.class || Arrays.asList(ifc.getInterfaces()).contains(Aware.class);
        String name = ifc.getName();
        boolean internal = name.equals("groovy.lang.GroovyObject") || name.endsWith(".cglib.proxy.Factory")
                || name.endsWith(".bytebuddy.MockAccess");
        return !callback && !internal && ifc.getMethods().length > 0;
    }
}
