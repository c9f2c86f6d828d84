package io.jobguard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationParserTest {

    @ParameterizedTest
    @CsvSource({"500ms,PT0.5S", "30s,PT30S", "5m,PT5M", "1h,PT1H", "2d,PT48H", "PT30S,PT30S", " 10 s ,PT10S",
            "15S,PT15S"})
    void parsesUnitsAndIso8601(String text, String expected) {
        assertThat(DurationParser.parse(text, "lease of job 'j'")).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5 minutes", "-5s", "s", "PT", "1.5s", "forever"})
    void rejectsGarbageNamingTheCulpritAndTheValue(String text) {
        assertThatThrownBy(() -> DurationParser.parse(text, "lease of job 'Reports.nightly'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease of job 'Reports.nightly'")
                .hasMessageContaining("'" + text + "'");
    }

    @Test
    void blankIsAnErrorButParseOrDefaultFallsBack() {
        assertThatThrownBy(() -> DurationParser.parse("  ", "waitFor of job 'x'"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("waitFor of job 'x': duration is blank");
        assertThat(DurationParser.parseOrDefault("", Duration.ofSeconds(7), "x")).isEqualTo(Duration.ofSeconds(7));
        assertThat(DurationParser.parseOrDefault(null, Duration.ofSeconds(7), "x")).isEqualTo(Duration.ofSeconds(7));
    }
}
