/**
 * The Redis codec shared by run leases, batch locks and the ShedLock provider, not exported: the key schema (the one
 * place that builds keys and channel names: {@link io.jobguard.internal.redis.KeySchema}), the lease values, the Lua
 * scripts and how they run (EVALSHA with one EVAL fallback on NOSCRIPT, keys of one call in one Cluster slot), the
 * release notifications that wake local waiters, and the names of Redis endpoints for log lines.
 *
 * <ul>
 *   <li>Values: {@link io.jobguard.internal.redis.LeaseValues} reads the plain-string values stored under job-guard's
 *       keys and reports anything else as a foreign value.</li>
 *   <li>Scripts: {@link io.jobguard.internal.redis.LuaScript} is one script loaded once, after the shared
 *       {@code prelude.lua}, with its SHA-1; {@link io.jobguard.internal.redis.ScriptRunner} runs it with EVALSHA,
 *       falling back to EVAL once on {@code NOSCRIPT}.</li>
 *   <li>Calls: {@link io.jobguard.internal.redis.StoreCalls} runs one Redis call of a store and turns any failure into
 *       a {@code LeaseStoreException} naming what was tried, with Redis' own words;
 *       {@link io.jobguard.internal.redis.RedisEndpoints} names the Redis a connection factory talks to, for those
 *       messages and log lines.</li>
 *   <li>Waking: {@link io.jobguard.internal.redis.ReleaseNotifications} holds one pub/sub subscription per instance
 *       and wakes local waiters when a lease is released anywhere in the cluster.</li>
 *   <li>Native builds: {@code LuaScriptRuntimeHints} keeps every Lua script in a Spring AOT or native build.</li>
 * </ul>
 */
package io.jobguard.internal.redis;
