package io.jobguard.spring.it;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.UncheckedIOException;

/**
 * Reads the actuator's JSON answers in the tests. Jackson 2, because both Boot lines manage it (Boot 3.5 as its JSON
 * library, Boot 4 beside Jackson 3), so the same test classes run on either line.
 */
final class Json {

    private final ObjectMapper mapper = new ObjectMapper();

    JsonNode readTree(String body) {
        try {
            return mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }
}
