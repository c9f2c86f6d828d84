package io.jobguard.spring.actuator;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Answers a {@code DELETE} or {@code POST /actuator/jobguard/{job}} that the endpoint does not map
 * because its access is read-only (the default) with HTTP 405 and a JSON body that names the settings
 * that turn the write on, instead of a bare 405. Every other request, and every other exception, is
 * left to Spring MVC.
 */
final class ForceReleaseNotMappedResolver implements HandlerExceptionResolver, Ordered {

    static final String ACCESS_PROPERTY = "management.endpoint.jobguard.access";
    static final String ENABLED_PROPERTY = "jobguard.actuator.force-release-enabled";
    static final String WRITE_PROPERTY = JobControl.ENABLED_PROPERTY;

    private final String endpointPath;
    private final boolean forceReleaseEnabled;
    private final boolean writeEnabled;

    /**
     * Creates the resolver.
     *
     * @param basePath            the actuator base path ({@code management.endpoints.web.base-path})
     * @param forceReleaseEnabled the value of {@value #ENABLED_PROPERTY}
     * @param writeEnabled        the value of {@code jobguard.actuator.write-enabled}
     */
    ForceReleaseNotMappedResolver(String basePath, boolean forceReleaseEnabled, boolean writeEnabled) {
        String base = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
        this.endpointPath = base + "/jobguard/";
        this.forceReleaseEnabled = forceReleaseEnabled;
        this.writeEnabled = writeEnabled;
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception ex) {
        boolean delete = "DELETE".equals(request.getMethod());
        if (!(ex instanceof HttpRequestMethodNotSupportedException) || !delete && !"POST".equals(request.getMethod())) {
            return null;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!path.startsWith(endpointPath) || path.length() == endpointPath.length()
                || path.indexOf('/', endpointPath.length()) >= 0) {
            return null;
        }
        String job = path.substring(endpointPath.length());
        String message = (delete ? "force-release is off: DELETE" : "writes are off: POST (pause, resume, run-now)")
                + " needs " + ACCESS_PROPERTY + "=unrestricted"
                + (delete ? (forceReleaseEnabled ? "" : " and " + ENABLED_PROPERTY + "=true (now false)")
                        : (writeEnabled ? "" : " and " + WRITE_PROPERTY + "=true (now false)"))
                + "; secure the actuator (e.g. Spring Security) before you allow it";
        try {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            response.setHeader("Allow", "GET");
            response.setContentType("application/json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write("{\"job\":\"" + json(job) + "\"," + (delete ? "\"released\"" : "\"changed\"")
                    + ":false,\"message\":\"" + json(message) + "\"}");
            response.flushBuffer();
        } catch (IOException e) {
            return null;
        }
        return new ModelAndView();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
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
