/**
 * Internal plumbing shared by job-guard's Spring packages (registry of guarded methods, schedule
 * grids). Public only for those packages; not an API and may change
 * in any release.
 */
package io.jobguard.spring.internal;
