/**
 * Fenced writes: a downstream resource refuses a writer whose fencing token is lower than the highest it has
 * seen, so a run that outlived its lease (a GC pause, a frozen VM) cannot overwrite the work of the newer run.
 * {@link io.jobguard.fencing.JdbcFence} for databases (a fence table advanced in the writer's transaction),
 * {@link io.jobguard.fencing.RedisFence} for output in Redis. Both refuse with
 * {@link io.jobguard.fencing.StaleFencingTokenException}. {@code FenceDdlRuntimeHints} keeps the fence tables' DDL
 * files in a Spring AOT or native build.
 */
package io.jobguard.fencing;
