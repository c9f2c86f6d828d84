package io.jobguard.spring.batch;

import io.jobguard.BatchLocked;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Lets {@link BatchLockedAdvisor} read {@link BatchLocked @BatchLocked} in a native image built with Spring AOT:
 * the annotation's attribute methods, which Spring's merged-annotation support invokes reflectively, and a JDK
 * proxy of the annotation, which it synthesizes when the annotation is used as a meta-annotation of an
 * application's own. What each annotated bean needs (its methods, their arguments' types, its proxy) is registered
 * per bean by {@link BatchLockedAotProcessor}. Listed in job-guard-spring's {@code META-INF/spring/aot.factories};
 * Spring instantiates it through that file only.
 */
final class BatchLockedRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.reflection().registerType(BatchLocked.class, MemberCategory.INVOKE_DECLARED_METHODS);
        hints.proxies().registerJdkProxy(BatchLocked.class);
    }
}
