package io.jobguard.examples.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Polls a node's health URL until it answers UP. On a loaded machine the first answers of a
 * starting Spring Boot node take seconds; every I/O error (refused, reset, a request timing out)
 * therefore only means "not yet", and only the overall deadline (or a dead process) ends the wait.
 *
 * @param http           the client
 * @param requestTimeout bound of one request
 * @param pause          between attempts
 */
record HealthPoller(HttpClient http, Duration requestTimeout, Duration pause) {

    /**
     * Polls until the URL answers a body containing {@code UP}, the deadline passes or {@code giveUp}
     * says to stop.
     *
     * @param uri           the health URL
     * @param deadlineNanos {@link System#nanoTime()} by which to give up
     * @param giveUp        checked before every attempt (e.g. the node's process died)
     * @return whether the node became healthy, and the last thing seen
     * @throws InterruptedException if interrupted while waiting
     */
    Result await(URI uri, long deadlineNanos, BooleanSupplier giveUp) throws InterruptedException {
        String last = "no answer yet";
        while (System.nanoTime() < deadlineNanos) {
            if (giveUp.getAsBoolean()) {
                return new Result(false, last);
            }
            try {
                HttpRequest request = HttpRequest.newBuilder(uri).timeout(requestTimeout).build();
                String health = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
                if (health.contains("UP")) {
                    return new Result(true, health);
                }
                last = "health said " + health;
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(pause.toMillis());
        }
        return new Result(false, last);
    }

    /**
     * What a wait ended with.
     *
     * @param healthy whether the node answered UP
     * @param last    the last answer or error
     */
    record Result(boolean healthy, String last) {
    }
}
