/**
 * The fleet spread: which live node asks the store for each declared job's regular fire times
 * ({@link io.jobguard.internal.spread.Assignment}), what each node publishes so that the others can leave a fire time
 * to it ({@link io.jobguard.internal.spread.Coverage}, carried in a {@link io.jobguard.internal.spread.MemberPublication}
 * and read back as a {@link io.jobguard.internal.spread.SpreadView}), and how a node that left one to another takes it over when
 * that node did not cover it in time ({@link io.jobguard.internal.spread.TakeOvers}). {@link
 * io.jobguard.internal.spread.FleetSpread} is the engine's entry. The fire-time marker stays the
 * authority: the spread only decides who asks. docs/design.md, "Spread over the fleet", gives the argument.
 */
package io.jobguard.internal.spread;
