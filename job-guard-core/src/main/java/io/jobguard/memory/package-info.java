/**
 * {@link io.jobguard.memory.InMemoryLeaseStore}: leases on this JVM's heap, exclusive within one JVM only. For tests
 * and single-instance applications; it keeps run history without outcomes and offers force release, but no pausing.
 */
package io.jobguard.memory;
