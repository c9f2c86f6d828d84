/**
 * job-guard's spring adapter.
 */
package io.jobguard.spring;
