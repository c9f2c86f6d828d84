/**
 * The Redis lease store, as users configure and call it: {@link io.jobguard.redis.RedisLeaseStore} keeps run leases,
 * fire-time markers, history, pause flags and cool-downs in Redis (standalone, Sentinel or Cluster, through any
 * spring-data-redis connection factory), each admission one atomic {@code run-acquire.lua} call timed by Redis's
 * clock; {@link io.jobguard.redis.DurableAcquire} makes an acquire wait for replicas before a run starts;
 * {@link io.jobguard.redis.RedisEvictionCheck} refuses an eviction policy that could drop job-guard's keys. The engine
 * behind the store is internal: the acquire, release and read calls in {@code io.jobguard.internal.redis.run}, the
 * data-loss judgement in {@code io.jobguard.internal.redis.loss}, the fleet's clock leads in
 * {@code io.jobguard.internal.redis.fleet}.
 */
package io.jobguard.redis;
