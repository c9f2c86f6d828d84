package io.jobguard.spring.firing;

import io.jobguard.ClusterSingleton;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Lets {@link ClusterSingletonPostProcessor} read {@link ClusterSingleton @ClusterSingleton} in a native image built
 * with Spring AOT: the annotation's attribute methods, which Spring's merged-annotation support invokes
 * reflectively, and a JDK proxy of the annotation, which it synthesizes when the annotation is used as a
 * meta-annotation of an application's own. The guarded methods themselves need nothing more: they are
 * {@code @Scheduled}, which Spring registers for reflection, and the post-processor proxies with CGLIB, whose proxy
 * classes Spring AOT generates at build time (the post-processor tells it the proxy type through
 * {@code determineBeanType}). Listed in job-guard-spring's {@code META-INF/spring/aot.factories}; Spring instantiates
 * it through that file only.
 */
final class ClusterSingletonRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.reflection().registerType(ClusterSingleton.class, MemberCategory.INVOKE_DECLARED_METHODS);
        hints.proxies().registerJdkProxy(ClusterSingleton.class);
    }
}
