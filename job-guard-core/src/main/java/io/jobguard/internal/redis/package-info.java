/**
 * The Redis codec shared by run leases, batch locks and the ShedLock provider, not exported: the key schema (the one
 * place that builds keys and channel names: {@link io.jobguard.internal.redis.KeySchema}), the lease values, the Lua
 * scripts and how they run (EVALSHA with one EVAL fallback on NOSCRIPT, keys of one call in one Cluster slot), the
 * release notifications that wake local waiters, and the names of Redis endpoints for log lines.
 */
package io.jobguard.internal.redis;
