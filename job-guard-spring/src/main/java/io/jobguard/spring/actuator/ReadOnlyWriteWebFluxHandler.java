package io.jobguard.spring.actuator;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;

/**
 * The WebFlux side of {@link ForceReleaseNotMappedResolver}: a {@code POST} or {@code DELETE} on
 * {@code /actuator/jobguard/{job}} that the read-only endpoint does not map is answered with HTTP 405
 * and a JSON body naming the settings that turn the write on, instead of a bare 405. Every other
 * request and exception goes on to the next handler.
 */
final class ReadOnlyWriteWebFluxHandler implements WebExceptionHandler, Ordered {

    private final ReadOnlyWrites answers;

    ReadOnlyWriteWebFluxHandler(ReadOnlyWrites answers) {
        this.answers = answers;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        HttpMethod method = exchange.getRequest().getMethod();
        boolean delete = HttpMethod.DELETE.equals(method);
        if (!(ex instanceof MethodNotAllowedException) || !delete && !HttpMethod.POST.equals(method)
                || exchange.getResponse().isCommitted()) {
            return Mono.error(ex);
        }
        String json = answers.body(exchange.getRequest().getPath().pathWithinApplication().value(), delete);
        if (json == null) {
            return Mono.error(ex);
        }
        exchange.getResponse().setStatusCode(HttpStatus.METHOD_NOT_ALLOWED);
        exchange.getResponse().getHeaders().setAllow(java.util.Set.of(HttpMethod.GET));
        exchange.getResponse().getHeaders().setContentType(MediaType.APPLICATION_JSON);
        DataBuffer buffer = exchange.getResponse().bufferFactory().wrap(json.getBytes(StandardCharsets.UTF_8));
        return exchange.getResponse().writeWith(Mono.just(buffer));
    }

    @Override
    public int getOrder() {
        // before Boot's error handler (order -1), which would answer a bare 405
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
