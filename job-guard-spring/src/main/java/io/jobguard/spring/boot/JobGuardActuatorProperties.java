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

    /** Whether POST /actuator/jobguard/{job} may pause, resume or run a job now. Off by default. */
    private boolean writeEnabled;

    /** The role a caller needs for the endpoint's writes (pause, resume, run-now, force-release); none by default. */
    private String writeRole;

    /**
     * Returns whether pause, resume and run-now are allowed.
     *
     * @return whether they are allowed
     */
    public boolean isWriteEnabled() {
        return writeEnabled;
    }

    /**
     * Sets whether pause, resume and run-now are allowed.
     *
     * @param writeEnabled whether they are allowed
     */
    public void setWriteEnabled(boolean writeEnabled) {
        this.writeEnabled = writeEnabled;
    }

    /**
     * Returns the role writes need.
     *
     * @return the role, or null
     */
    public String getWriteRole() {
        return writeRole;
    }

    /**
     * Sets the role writes need.
     *
     * @param writeRole the role, or null for none
     */
    public void setWriteRole(String writeRole) {
        this.writeRole = writeRole;
    }

    /**
     * The health status of the jobguard indicator when the store is unreachable or the clock skew exceeds the
     * tolerance: UNKNOWN (default) keeps the application in service, DOWN or OUT_OF_SERVICE takes it out.
     */
    private String unhealthyStatus = "UNKNOWN";

    /**
     * Returns the status reported when unhealthy.
     *
     * @return the status code
     */
    public String getUnhealthyStatus() {
        return unhealthyStatus;
    }

    /**
     * Sets the status reported when unhealthy.
     *
     * @param unhealthyStatus the status code
     */
    public void setUnhealthyStatus(String unhealthyStatus) {
        this.unhealthyStatus = unhealthyStatus;
    }
}
