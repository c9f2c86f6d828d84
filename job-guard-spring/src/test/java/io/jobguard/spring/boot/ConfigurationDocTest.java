package io.jobguard.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md lists every property of job-guard's configuration metadata, and nothing else, with the
 * metadata's default: the metadata is what the build generates from the properties records
 * ({@code META-INF/spring-configuration-metadata.json}) plus the hand-written
 * {@code additional-spring-configuration-metadata.json} of job-guard-spring and job-guard-quartz. A row's default
 * cell either starts with the metadata's {@code defaultValue} in backticks or, for a property the metadata gives no
 * default, with "unset". The {@code jobguard.jobs.<name>.*} rows are exactly the components of
 * {@link JobOverrideProperties}.
 */
class ConfigurationDocTest {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z][^`]*)` \\| ([^|]*) \\|");
    private static final Pattern FIRST_CODE = Pattern.compile("^`([^`]*)`");
    private static final String PER_JOB = "jobguard.jobs.<name>.";

    @Test
    void everyPropertyOfTheMetadataIsDocumentedWithItsDefault() throws IOException {
        Path root = root();
        Map<String, String> metadata = metadata(root);
        assertThat(metadata).as("metadata read").containsKeys("jobguard.enabled", "jobguard.skew-tolerance",
                "jobguard.batch.chunk-size", "jobguard.quartz.enabled", "management.endpoint.jobguard.access");

        String doc = Files.readString(root.resolve("docs/configuration.md"), StandardCharsets.UTF_8);
        Map<String, String> rows = new TreeMap<>();
        Matcher m = ROW.matcher(doc);
        while (m.find()) {
            assertThat(rows.put(m.group(1), m.group(2).strip())).as("%s listed once", m.group(1)).isNull();
        }

        Set<String> perJob = rows.keySet().stream().filter(p -> p.startsWith(PER_JOB))
                .map(p -> p.substring(PER_JOB.length())).collect(Collectors.toCollection(TreeSet::new));
        Set<String> overrides = Arrays.stream(JobOverrideProperties.class.getRecordComponents())
                .map(c -> kebab(c.getName())).collect(Collectors.toCollection(TreeSet::new));
        assertThat(perJob).as("jobguard.jobs.<name>.* rows vs JobOverrideProperties").isEqualTo(overrides);

        Set<String> documented = rows.keySet().stream().filter(p -> !p.startsWith(PER_JOB))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(documented).as("properties in docs/configuration.md vs the configuration metadata")
                .isEqualTo(metadata.keySet());

        for (Map.Entry<String, String> row : rows.entrySet()) {
            String cell = row.getValue();
            String expected = metadata.get(row.getKey());
            if (expected == null) {
                assertThat(cell).as("default of %s: the metadata has none", row.getKey()).startsWith("unset");
            } else {
                Matcher code = FIRST_CODE.matcher(cell);
                assertThat(code.find()).as("default of %s starts with a value in backticks: %s", row.getKey(), cell)
                        .isTrue();
                assertThat(code.group(1)).as("default of %s", row.getKey()).isEqualTo(expected);
            }
        }
    }

    /** Name to default (null when none) of every job-guard property in the metadata this build reads. */
    private static Map<String, String> metadata(Path root) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> properties = new TreeMap<>();
        for (String resource : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            Enumeration<URL> urls = ConfigurationDocTest.class.getClassLoader().getResources(resource);
            while (urls.hasMoreElements()) {
                try (InputStream in = urls.nextElement().openStream()) {
                    add(json.readTree(in), properties);
                }
            }
        }
        // job-guard-quartz is not on this module's classpath: its hand-written metadata is read from the sources
        add(json.readTree(root.resolve("job-guard-quartz/src/main/resources/META-INF/"
                + "additional-spring-configuration-metadata.json").toFile()), properties);
        return properties;
    }

    private static void add(JsonNode metadata, Map<String, String> properties) {
        for (JsonNode property : metadata.path("properties")) {
            String name = property.path("name").asText();
            if (name.startsWith("jobguard.") || name.startsWith("management.endpoint.jobguard.")) {
                JsonNode value = property.get("defaultValue");
                properties.put(name, value == null || value.isNull() ? null : value.asText());
            }
        }
    }

    private static String kebab(String field) {
        return field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** The repository root: the first directory above this module's that holds docs/configuration.md. */
    private static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/configuration.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docs/configuration.md above " + Path.of("").toAbsolutePath());
    }
}
