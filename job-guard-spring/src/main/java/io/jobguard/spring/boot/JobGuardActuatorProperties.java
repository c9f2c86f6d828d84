package io.jobguard.spring.boot;

/** Settings of the actuator endpoint {@code jobguard}, bound from {@code jobguard.actuator.*}. */
public class JobGuardActuatorProperties {

    /** Whether DELETE /actuator/jobguard/{job} may force-release a stuck run lease. Off by default. */
    private boolean forceReleaseEnabled;

    /**
     * Returns whether force-release is allowed.
     *
     * @return whether force-release is allowed
     */
    public boolean isForceReleaseEnabled() {
        return forceReleaseEnabled;
    }

    /**
     * Sets whether force-release is allowed.
     *
     * @param forceReleaseEnabled whether force-release is allowed
     */
    public void setForceReleaseEnabled(boolean forceReleaseEnabled) {
        this.forceReleaseEnabled = forceReleaseEnabled;
    }
}
