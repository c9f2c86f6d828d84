/**
 * job-guard's quartz adapter.
 */
package io.jobguard.quartz;
