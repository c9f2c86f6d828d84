/**
 * Batch locks on business keys: all-or-nothing leases over thousands of keys at once, with
 * fencing tokens, owner-checked release and renewal, and RETURN or WAIT behaviour. The entry
 * point is {@link io.jobguard.batch.BatchLocks}; the Redis implementation is
 * {@link io.jobguard.redis.RedisBatchLocks}; declaratively, {@link io.jobguard.BatchLocked}.
 *
 * <h2>Keys in Redis</h2>
 * <pre>
 * jobguard:{&lt;ns&gt;~batch}:k:&lt;key&gt;   one locked business key; value jg1|&lt;token&gt;||&lt;acquired-at&gt;|&lt;fence&gt;|&lt;node&gt;, PX = lease
 * jobguard:{&lt;ns&gt;~batch}:fence      fencing counter of the namespace (INCR once per acquisition)
 * jobguard:{&lt;ns&gt;~batch}:leases     live batch leases (sorted set of lock values, scored by expiry in ms)
 * jobguard:&lt;ns&gt;~batch:k:{&lt;key&gt;}   spread mode: the business key is the hash tag
 * </pre>
 * Releases publish {@code batch|<ns>} on {@code jobguard:released}; WAIT callers are woken by it.
 *
 * <h2>Redis Cluster</h2>
 * By default every key of a namespace shares the hash tag {@code {<ns>~batch}}: one slot, so each
 * chunk is one atomic script, acquisition and release are one round trip per chunk, and the
 * fencing counter and index are updated in the same script; the price is that one namespace
 * lives on one master. Spread mode ({@link io.jobguard.batch.BatchLockConfig#spread()}) spreads
 * the keys over every slot: they are grouped by slot and taken one slot group per call, in
 * ascending slot order, rolled back on a conflict, with {@code TRYAGAIN}/{@code MOVED} retried;
 * the load spreads over the masters but a batch of N keys costs about one call per distinct slot
 * (for a few thousand random keys, about one per key), plus separate calls for the counter and the
 * index. Either way the caller sees all or nothing.
 */
package io.jobguard.batch;
