/**
 * What the nodes of a fleet tell each other through Redis, not exported.
 * {@link io.jobguard.internal.redis.fleet.FleetLeads} publishes this node's clock lead over Redis and how late it
 * fires, and reads the fleet's ({@code fleet-leads.lua}; one hash per key prefix, per Cluster shard:
 * {@link io.jobguard.internal.redis.fleet.LeadShards}); {@link io.jobguard.internal.redis.fleet.FleetLateness} turns
 * the lateness entries into the latest fire time every live later node has reached, so that a leading node runs the
 * fire times a lagging node has not reached instead of reporting them missed;
 * {@link io.jobguard.internal.redis.fleet.RecentMaximum} keeps the largest value over a sliding minute;
 * {@link io.jobguard.internal.redis.fleet.LeadAcknowledgements} waits until the fleet has read a grown lead;
 * {@link io.jobguard.internal.redis.fleet.MemberRead} gathers what each node published for the fleet spread. The loss
 * windows ({@code io.jobguard.internal.redis.loss}) are judged from these leads. Guarantee: at the moment Redis loses
 * its data, every node already holds the fleet's leads in memory, one call per node, hash and interval whatever the
 * number of jobs.
 */
package io.jobguard.internal.redis.fleet;
