/**
 * Spring support for {@link io.jobguard.BatchLocked}: import
 * {@link io.jobguard.spring.batch.BatchLockingConfiguration} next to a
 * {@link io.jobguard.batch.BatchLocks} bean and annotated bean methods run only while their keys
 * are locked. The AOP plumbing is package-private.
 *
 * <ul>
 *   <li>Public: {@link io.jobguard.spring.batch.BatchLockedDefaults} is the lease and wait of methods that set none;
 *       {@link io.jobguard.spring.batch.BatchLockedMethods} lists the context's {@code @BatchLocked} methods with their
 *       namespaces, for reports such as the actuator endpoint.</li>
 *   <li>Plumbing: {@code BatchLockedAdvisor} matches the annotated methods and checks them when their bean is proxied;
 *       {@code BatchLockedMethod} is one such method, parsed once; {@code BatchLockedInterceptor} locks a call's keys,
 *       runs the method and releases them, never running it unlocked; {@code BatchKeys} turns the value of the keys
 *       expression into business keys.</li>
 *   <li>Native builds: {@code BatchLockedRuntimeHints} registers the annotation's attributes for Spring AOT, and
 *       {@code BatchLockedAotProcessor} each {@code @BatchLocked} bean's methods, argument types and JDK proxy.</li>
 * </ul>
 */
package io.jobguard.spring.batch;
