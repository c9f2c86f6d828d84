/**
 * The {@code jobguard} Spring Boot Actuator endpoint.
 */
package io.jobguard.spring.actuator;
