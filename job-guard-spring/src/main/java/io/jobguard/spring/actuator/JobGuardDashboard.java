package io.jobguard.spring.actuator;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;


/**
 * The dashboard page of the {@code jobguard} endpoint, served as one more read operation of the endpoint
 * itself at {@code <actuator base path>/jobguard/dashboard/index.html} (with its script and style sheet
 * next to it), so whatever protects the endpoint (exposure, access, Spring Security rules on
 * {@code EndpointRequest}, the management port) protects the page. The page is static: its script
 * reads {@code GET <base>/jobguard}, {@code GET <base>/jobguard/{job}} and the job's history pages
 * ({@code GET <base>/jobguard/{job}/history/json}, its section in {@code history.js}) from the same origin with the
 * caller's credentials, and writes only through the endpoint's write operations, so it shows and does
 * nothing the endpoint would not. Registered only with {@code jobguard.actuator.dashboard-enabled=true}
 * in a servlet or reactive web application.
 */
@EndpointWebExtension(endpoint = JobGuardEndpoint.class)
final class JobGuardDashboard {

    /** The first path segment after the endpoint's path. */
    static final String PATH = "dashboard";

    private static final String FOLDER = "io/jobguard/spring/dashboard/";

    /** The page's files and their types; null for any other name. */
    private static MimeType typeOf(String file) {
        return switch (file) {
            case "index.html" -> MimeType.valueOf("text/html;charset=UTF-8");
            case "dashboard.js", "history.js" -> MimeType.valueOf("text/javascript;charset=UTF-8");
            case "dashboard.css" -> MimeType.valueOf("text/css;charset=UTF-8");
            default -> null;
        };
    }

    /**
     * One file of the page.
     *
     * @param dashboard must be {@value #PATH}
     * @param file      {@code index.html}, {@code dashboard.js}, {@code history.js} or {@code dashboard.css}
     * @return the file, or HTTP 404
     */
    @ReadOperation(produces = {"text/html", "text/javascript", "text/css"})
    WebEndpointResponse<Resource> file(@Selector String dashboard, @Selector String file) {
        MimeType type = file == null ? null : typeOf(file);
        if (!PATH.equals(dashboard) || type == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        return new WebEndpointResponse<>(new ClassPathResource(FOLDER + file, JobGuardDashboard.class.getClassLoader()),
                WebEndpointResponse.STATUS_OK, type);
    }
}
