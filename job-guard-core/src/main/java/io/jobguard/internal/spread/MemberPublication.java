package io.jobguard.internal.spread;

/**
 * What one node publishes for the spread, beside its clock lead: {@code s1;<jobs digest>;<fleet digest>;<from>;<covered>}.
 * Nodes with the same jobs digest declared the same jobs; a fire time {@code T} of the fleet with the published digest
 * is decided when {@code from <= T <= covered} ({@link Coverage}).
 *
 * @param jobs    the digest of the jobs the node declared
 * @param fleet   the digest of the fleet the node saw (the node ids that declared the same jobs)
 * @param from    the node's first fire time it answers for (epoch millis)
 * @param covered the latest fire time through which every fire time of its assigned jobs was decided (epoch millis)
 */
record MemberPublication(String jobs, String fleet, long from, long covered) {

    /** The format of a publication. */
    static final String FORMAT = "s1";

    /** @return the publication, or null when it is not one of this format (another version, or a clock alone) */
    static MemberPublication parse(String publication) {
        String[] f = publication.split(";", -1);
        if (f.length < 5 || !FORMAT.equals(f[0])) {
            return null;
        }
        try {
            return new MemberPublication(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The text published. */
    String text() {
        return FORMAT + ";" + jobs + ";" + fleet + ";" + from + ";" + covered;
    }

    /** Whether the node, in the fleet with the given digest, decided the fire time. */
    boolean covers(String fleetDigest, long fireTime) {
        return fleet.equals(fleetDigest) && from <= fireTime && fireTime <= covered;
    }
}
