/**
 * Batch locks on business keys: all-or-nothing leases over thousands of keys at once, with
 * fencing tokens, owner-checked release and renewal, and RETURN or WAIT behaviour. The entry
 * point is {@link io.jobguard.batch.BatchLocks}; the Redis implementation is
 * {@link io.jobguard.redis.batch.RedisBatchLocks}; declaratively, {@link io.jobguard.BatchLocked}.
 *
 * <h2>Types</h2>
 * <ul>
 *   <li>Asking: a {@link io.jobguard.batch.BatchRequest} says which keys, for how long, and whether to return at once
 *       ({@code RETURN}) or wait ({@code WAIT}) when some are held; {@link io.jobguard.batch.BatchLockConfig} holds an
 *       instance's immutable, validated settings.</li>
 *   <li>Answers: a {@link io.jobguard.batch.BatchAttempt} is either a {@link io.jobguard.batch.BatchLease} holding
 *       every key (closing it releases them, owner-checked) or the reason none is held, with each
 *       {@link io.jobguard.batch.BatchConflict} (a key and its holder); {@link io.jobguard.batch.BatchResult} says how
 *       an acquisition ended. {@link io.jobguard.batch.BatchLockUnavailableException} is thrown instead when the caller
 *       asked for an exception rather than a result.</li>
 *   <li>Observing: a {@link io.jobguard.batch.BatchLockListener} hears of each finished acquisition (a
 *       {@link io.jobguard.batch.BatchLockEvent}) and of each lost batch lease, for metrics and logs.</li>
 * </ul>
 *
 * <h2>Keys in Redis</h2>
 * <pre>
 * jobguard:{&lt;ns&gt;~batch}:held            hash: field = locked business key, value = owner token
 * jobguard:{&lt;ns&gt;~batch}:lease:&lt;token&gt;   lease record jg1|&lt;token&gt;||&lt;acquired-at&gt;|&lt;fence&gt;|&lt;node&gt;, PX = lease
 * jobguard:{&lt;ns&gt;~batch}:fence           fencing counter of the namespace (INCR once per acquisition)
 * jobguard:{&lt;ns&gt;~batch}:leases          live batch leases (sorted set of records, scored by expiry in ms)
 * jobguard:{&lt;ns&gt;~batch~&lt;n&gt;}:held / :lease:&lt;token&gt;   spread mode: the same per bucket
 * </pre>
 * A key is held by a lease when its field names the lease's token <em>and</em> the lease's record
 * exists. The record alone carries the Redis TTL, so a crashed holder's keys turn free when its
 * record expires (no client clock is consulted), a renewal is one command whatever the key count,
 * and a refused acquisition writes nothing. Fields left by a crashed holder are dead: they are
 * overwritten by the next acquisition of the key, and the hash itself expires once no live lease
 * needs it (its TTL is kept at least as long as every record's).
 * Releases publish {@code batch|<ns>} on {@code jobguard:released}; WAIT callers are woken by it.
 *
 * <h2>Redis Cluster</h2>
 * By default every key of a namespace shares the hash tag {@code {<ns>~batch}}: one slot, so each
 * chunk is one atomic script, acquisition and release are one round trip per chunk, and the
 * fencing counter and index are updated in the same script; the price is that one namespace
 * lives on one master. Spread mode ({@link io.jobguard.batch.BatchLockConfig#spread()}) spreads
 * the keys over 16 buckets whose hash tags sit in evenly spaced slot ranges, so a namespace is
 * shared by the masters; buckets are taken one call per bucket (and chunk), in ascending order,
 * rolled back on a conflict, with {@code TRYAGAIN}/{@code MOVED} retried, plus separate calls for
 * the counter and the index. A batch costs up to 16 calls instead of one. Either way the caller
 * sees all or nothing.
 */
package io.jobguard.batch;
