package io.jobguard.spring.aot;

import io.jobguard.BatchLocked;
import io.jobguard.ClusterSingleton;
import io.jobguard.shedlock.JobGuardLockProvider;
import io.jobguard.spring.actuator.JobGuardEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.framework.ProxyProcessorSupport;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.javapoet.ClassName;

import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime hints job-guard-spring contributes to Spring AOT, as Spring AOT finds them (the registrars and bean
 * processors of every {@code META-INF/spring/aot.factories} on the class path), cover what job-guard reads or
 * writes reflectively or by name: every file of the dashboard's folder; every record the {@code jobguard}
 * endpoint writes as JSON, with its constructor and each component's accessor (so one added to the endpoint without
 * a hint fails here), and the ShedLock provider's held locks; the two annotations' attributes and the JDK proxies
 * Spring synthesizes of them; and, for a bean with {@code @BatchLocked} methods, those methods, the accessors SpEL
 * reads the keys through, and the exact JDK proxy Spring's proxy support makes of the bean.
 */
class JobGuardRuntimeHintsTest {

    private static final ClassLoader LOADER = JobGuardRuntimeHintsTest.class.getClassLoader();
    private static final RuntimeHints HINTS = registered();

    @Test
    void everyDashboardFileIsIncluded() throws Exception {
        Path classes = Path.of(JobGuardEndpoint.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> files;
        try (Stream<Path> listed = Files.list(classes.resolve("io/jobguard/spring/dashboard"))) {
            files = listed.map(f -> "io/jobguard/spring/dashboard/" + f.getFileName()).sorted().toList();
        }
        assertThat(files).contains("io/jobguard/spring/dashboard/index.html", "io/jobguard/spring/dashboard/dashboard.js",
                "io/jobguard/spring/dashboard/dashboard.css");
        assertThat(files).allSatisfy(file -> assertThat(RuntimeHintsPredicates.resource().forResource(file))
                .as("resource hint for %s", file).accepts(HINTS));
    }

    @Test
    void everyRecordTheEndpointWritesIsBound() {
        List<Class<?>> records = new ArrayList<>(Arrays.stream(JobGuardEndpoint.class.getDeclaredClasses())
                .filter(Class::isRecord).toList());
        assertThat(records).as("the endpoint's records").hasSizeGreaterThanOrEqualTo(12);
        records.add(JobGuardLockProvider.HeldLock.class);
        assertThat(records).allSatisfy(type -> {
            assertThat(RuntimeHintsPredicates.reflection().onType(type)
                    .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as("constructors of %s", type)
                    .accepts(HINTS);
            for (RecordComponent component : type.getRecordComponents()) {
                assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(component.getAccessor()))
                        .as("accessor %s.%s()", type.getSimpleName(), component.getName()).accepts(HINTS);
            }
        });
    }

    @Test
    void theAnnotationsCanBeReadAndSynthesized() {
        for (Class<?> annotation : List.of(ClusterSingleton.class, BatchLocked.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onType(annotation)
                    .withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS)).as("attributes of %s", annotation)
                    .accepts(HINTS);
            assertThat(RuntimeHintsPredicates.proxies().forInterfaces(annotation)).as("synthesized %s", annotation)
                    .accepts(HINTS);
        }
    }

    @Test
    void aBatchLockedBeanGetsItsMethodsArgumentsAndJdkProxy() throws Exception {
        RuntimeHints hints = processed(Shipments.class);

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Shipments.class.getMethod("ship", List.class)))
                .as("the annotated method").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Order.class.getMethod("id")))
                .as("the accessor the keys' SpEL reads").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Shipments.class.getMethod("unlocked")))
                .as("a method without the annotation").rejects(hints);
        // the proxy Spring's proxy support makes of the bean when proxies are not class-based
        ProxyFactory factory = new ProxyFactory();
        new ProxyProcessorSupport() {
            {
                evaluateProxyInterfaces(Shipments.class, factory);
            }
        };
        factory.setTarget(new Shipments());
        Object proxy = factory.getProxy(LOADER);
        assertThat(Proxy.isProxyClass(proxy.getClass())).as("a JDK proxy").isTrue();
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(proxy.getClass().getInterfaces()))
                .as("hint for the proxy's interfaces %s", Arrays.toString(proxy.getClass().getInterfaces()))
                .accepts(hints);
    }

    @Test
    void aBeanWithoutBatchLockedMethodsGetsNothing() {
        assertThat(contributions(Order.class)).isEmpty();
    }

    /** The hints as Spring AOT collects them: every registrar listed in the class path's aot.factories. */
    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories", LOADER)
                .load(RuntimeHintsRegistrar.class).forEach(registrar -> registrar.registerHints(hints, LOADER));
        return hints;
    }

    /** The hints job-guard's bean processors (found as Spring AOT finds them) contribute for one bean. */
    private static RuntimeHints processed(Class<?> beanClass) {
        DefaultGenerationContext context = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "Application")), new InMemoryGeneratedFiles());
        contributions(beanClass).forEach(c -> c.applyTo(context, null));
        return context.getRuntimeHints();
    }

    private static List<BeanRegistrationAotContribution> contributions(Class<?> beanClass) {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
        RegisteredBean bean = RegisteredBean.of(beanFactory, "bean");
        List<BeanRegistrationAotProcessor> processors = SpringFactoriesLoader
                .forResourceLocation("META-INF/spring/aot.factories", LOADER).load(BeanRegistrationAotProcessor.class)
                .stream().filter(p -> p.getClass().getName().startsWith("io.jobguard.")).toList();
        assertThat(processors).as("job-guard's bean processors").isNotEmpty();
        return processors.stream().map(p -> p.processAheadOfTime(bean)).filter(c -> c != null).toList();
    }

    /** A port the application calls through; the bean also has a container callback, which a proxy keeps. */
    public interface ShipmentPort {
        void ship(List<Order> orders);
    }

    /** An application bean with a batch-locked method whose keys SpEL reads from the argument's elements. */
    public static class Shipments implements ShipmentPort, InitializingBean {

        @Override
        @BatchLocked(namespace = "shipments", keys = "#orders.![id]")
        public void ship(List<Order> orders) {
        }

        public void unlocked() {
        }

        @Override
        public void afterPropertiesSet() {
        }
    }

    /** An argument type, known to job-guard only through the method's signature. */
    public record Order(String id) {
    }
}
