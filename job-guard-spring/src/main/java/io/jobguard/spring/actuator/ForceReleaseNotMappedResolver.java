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

    private final ReadOnlyWrites answers;

    /**
     * Creates the resolver.
     *
     * @param answers what a write on the read-only endpoint is answered with
     */
    ForceReleaseNotMappedResolver(ReadOnlyWrites answers) {
        this.answers = answers;
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception ex) {
        boolean delete = "DELETE".equals(request.getMethod());
        if (!(ex instanceof HttpRequestMethodNotSupportedException) || !delete && !"POST".equals(request.getMethod())) {
            return null;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String json = answers.body(path, delete);
        if (json == null) {
            return null;
        }
        try {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            response.setHeader("Allow", "GET");
            response.setContentType("application/json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(json);
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
}
