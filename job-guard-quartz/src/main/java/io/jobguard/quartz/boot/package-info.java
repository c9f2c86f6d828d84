/**
 * Spring Boot auto-configuration that guards the application's Quartz schedulers with job-guard.
 */
package io.jobguard.quartz.boot;
