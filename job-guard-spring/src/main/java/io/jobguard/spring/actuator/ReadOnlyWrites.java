package io.jobguard.spring.actuator;

/**
 * What a write on the read-only {@code jobguard} endpoint is answered with: HTTP 405 and a JSON body
 * naming the settings that turn the write on, for {@code POST} (pause, resume, run-now, retry) and
 * {@code DELETE} (force-release) on {@code <base-path>/jobguard/<job>}. Used by the servlet
 * ({@link ForceReleaseNotMappedResolver}) and the WebFlux ({@link ReadOnlyWriteWebFluxHandler}) side,
 * and free of both stacks' types so that each loads without the other.
 */
final class ReadOnlyWrites {

    static final String ACCESS_PROPERTY = "management.endpoint.jobguard.access";
    static final String ENABLED_PROPERTY = "jobguard.actuator.force-release-enabled";
    static final String WRITE_PROPERTY = JobControl.ENABLED_PROPERTY;

    private final String endpointPath;
    private final boolean forceReleaseEnabled;
    private final boolean writeEnabled;

    /**
     * @param basePath            the actuator base path ({@code management.endpoints.web.base-path})
     * @param forceReleaseEnabled the value of {@value #ENABLED_PROPERTY}
     * @param writeEnabled        the value of {@code jobguard.actuator.write-enabled}
     */
    ReadOnlyWrites(String basePath, boolean forceReleaseEnabled, boolean writeEnabled) {
        String base = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
        this.endpointPath = base + "/jobguard/";
        this.forceReleaseEnabled = forceReleaseEnabled;
        this.writeEnabled = writeEnabled;
    }

    /**
     * The answer to a write on a job's path, or null when the path is not {@code <base>/jobguard/<job>}.
     *
     * @param path   the request path without the context path
     * @param delete DELETE (force-release) rather than POST (pause, resume, run-now, retry)
     * @return the JSON body, or null
     */
    String body(String path, boolean delete) {
        if (!path.startsWith(endpointPath) || path.length() == endpointPath.length()
                || path.indexOf('/', endpointPath.length()) >= 0) {
            return null;
        }
        String job = path.substring(endpointPath.length());
        String message = (delete ? "force-release is off: DELETE"
                : "writes are off: POST (pause, resume, run-now, retry)")
                + " needs " + ACCESS_PROPERTY + "=unrestricted"
                + (delete ? (forceReleaseEnabled ? "" : " and " + ENABLED_PROPERTY + "=true (now false)")
                        : (writeEnabled ? "" : " and " + WRITE_PROPERTY + "=true (now false)"))
                + "; secure the actuator (e.g. Spring Security) before you allow it";
        return "{\"job\":\"" + json(job) + "\"," + (delete ? "\"released\"" : "\"changed\"") + ":false,\"message\":\""
                + json(message) + "\"}";
    }

    private static String json(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
