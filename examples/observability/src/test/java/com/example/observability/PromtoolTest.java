package com.example.observability;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Prometheus' own tool checks the shipped files: {@code promtool check config} (the scrape config and the rules it
 * loads), {@code promtool check rules}, and {@code promtool test rules} on {@code jobguard-alerts.test.yml}, which
 * must hold, for every alert, an evaluation where it fires and one where it stays silent. Without promtool the test
 * fails naming the Debian package {@code prometheus}.
 */
class PromtoolTest {

    private static final Path DIR = Path.of("prometheus");
    private static final Path RULES = DIR.resolve("jobguard-alerts.yml");
    private static final Path TESTS = DIR.resolve("jobguard-alerts.test.yml");

    @Test
    void theConfigAndTheRulesAreValid() throws Exception {
        String promtool = PrometheusBinaries.require("promtool").toString();
        PrometheusBinaries.Run config = PrometheusBinaries.run(DIR, 60, promtool, "check", "config", "prometheus.yml");
        System.out.print(config.output());
        assertThat(config.exitCode()).as(config.output()).isZero();
        assertThat(config.output()).contains("SUCCESS: 1 rule files found", "SUCCESS: 7 rules found");

        PrometheusBinaries.Run rules = PrometheusBinaries.run(DIR, 60, promtool, "check", "rules", "jobguard-alerts.yml");
        System.out.print(rules.output());
        assertThat(rules.exitCode()).as(rules.output()).isZero();
        assertThat(rules.output()).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void everyAlertFiresOnASeriesThatShouldPageAndStaysSilentOnAHealthyOne() throws Exception {
        String promtool = PrometheusBinaries.require("promtool").toString();
        PrometheusBinaries.Run test = PrometheusBinaries.run(DIR, 120, promtool, "test", "rules",
                TESTS.getFileName().toString());
        System.out.print(test.output());
        assertThat(test.exitCode()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS").doesNotContain("FAILED");

        Set<String> firing = new TreeSet<>();
        Set<String> silent = new TreeSet<>();
        for (Map<String, Object> testCase : list(yaml(TESTS).get("tests"))) {
            for (Map<String, Object> check : list(testCase.get("alert_rule_test"))) {
                String alert = (String) check.get("alertname");
                List<?> expected = (List<?>) check.get("exp_alerts");
                (expected == null || expected.isEmpty() ? silent : firing).add(alert);
            }
        }
        assertThat(firing).as("alerts with an evaluation where they fire").isEqualTo(alerts());
        assertThat(silent).as("alerts with an evaluation where they stay silent").isEqualTo(alerts());
    }

    @Test
    void aMissingBinaryFailsNamingTheDebianPackage() {
        assertThatThrownBy(() -> PrometheusBinaries.require("promtool-that-is-not-installed"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("promtool-that-is-not-installed is not on the PATH nor in /usr/bin")
                .hasMessageContaining("install Debian's package prometheus");
    }

    /** The alert names of the rules file. */
    private static Set<String> alerts() throws Exception {
        Set<String> names = new TreeSet<>();
        for (Map<String, Object> group : list(yaml(RULES).get("groups"))) {
            for (Map<String, Object> rule : list(group.get("rules"))) {
                names.add((String) rule.get("alert"));
            }
        }
        assertThat(names).hasSize(7);
        return names;
    }

    private static Map<String, Object> yaml(Path file) throws Exception {
        try (Reader reader = Files.newBufferedReader(file)) {
            return new Yaml().load(reader);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }
}
