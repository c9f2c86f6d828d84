/**
 * Spring support for {@link io.jobguard.BatchLocked}: import
 * {@link io.jobguard.spring.batch.BatchLockingConfiguration} next to a
 * {@link io.jobguard.batch.BatchLocks} bean and annotated bean methods run only while their keys
 * are locked. The AOP plumbing is package-private.
 */
package io.jobguard.spring.batch;
