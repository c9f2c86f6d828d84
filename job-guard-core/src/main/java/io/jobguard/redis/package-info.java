/**
 * The Redis lease store: {@link io.jobguard.redis.RedisLeaseStore} keeps run leases, fire-time markers, history,
 * pause flags and cool-downs in Redis (standalone, Sentinel or Cluster, through any spring-data-redis connection
 * factory), each admission one atomic {@code run-acquire.lua} call timed by Redis's clock. Users call the store,
 * {@link io.jobguard.redis.DurableAcquire} (wait for replicas before a run starts) and
 * {@link io.jobguard.redis.RedisEvictionCheck} (refuse an eviction policy that could drop job-guard's keys); the rest
 * is package-private: the acquire, release and read calls, history, pause flags and schedule publications. The
 * data-loss machinery they call (history epochs, the fleet's clock leads and the loss windows judged from them),
 * which turns a Redis that lost its data into {@code HISTORY_LOST} refusals instead of second runs
 * (docs/reliability.md), is internal: {@code io.jobguard.internal.redis.loss}.
 */
package io.jobguard.redis;
