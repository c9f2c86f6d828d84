/** Fenced writes with Spring's {@code JdbcTemplate} ({@link io.jobguard.spring.fencing.JdbcTemplateFence}). */
package io.jobguard.spring.fencing;
