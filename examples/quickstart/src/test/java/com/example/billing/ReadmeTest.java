package com.example.billing;

import io.jobguard.spring.boot.JobGuardProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps README.md, CONTRIBUTING.md, examples/README.md and every docs/*.md page true to the code: (1) every fenced
 * block preceded by
 * {@code <!-- from: <path>[#<section>] -->} is exactly that file of the repository (or the part of
 * it between {@code README: <section>} and {@code end}), so the Quickstart shown is the app that
 * {@link QuickstartIT} runs; (2) every {@code properties} block binds for real: each key is a
 * property Spring Boot or job-guard declares, no value carries a trailing comment or blank (a
 * {@code .properties} file has no end-of-line comments: {@code jobguard.namespace=billing # ...}
 * makes the whole rest the namespace), and the {@code jobguard.*} keys bind to
 * {@link JobGuardProperties}.
 */
class ReadmeTest {

    private static final Path ROOT = Path.of("../..");
    private static final Pattern FENCE = Pattern.compile("(?m)^(<!-- from: ([^\\n]+?) -->\\n)?```(\\w*)\\n(.*?)^```$",
            Pattern.DOTALL);

    private final String readme = read(ROOT.resolve("README.md"));

    @Test
    void everyBlockTakenFromAFileIsThatFile() {
        int checked = 0;
        for (Block block : blocks()) {
            if (block.from() == null) {
                continue;
            }
            String[] parts = block.from().split("#", 2);
            String file = read(ROOT.resolve(parts[0]));
            String expected = parts.length == 1 ? file : section(file, parts[1], parts[0]);
            assertThat(block.text()).as("%s: block from %s", block.page(), block.from()).isEqualTo(expected);
            checked++;
        }
        String snippets = "<!-- from: examples/cluster-demo/src/main/java/io/jobguard/examples/readme/ReadmeSnippets.java#";
        assertThat(read(ROOT.resolve("docs/plain-java.md"))).contains(snippets + "plain Java -->");
        assertThat(read(ROOT.resolve("docs/batch-locks.md"))).contains(snippets + "batch locks -->", snippets + "@BatchLocked -->");
        assertThat(read(ROOT.resolve("docs/shedlock.md"))).contains(snippets + "ShedLock provider -->");
        assertThat(read(ROOT.resolve("docs/operations.md"))).as("the secured-actuator samples the build captures")
                .contains("<!-- from: examples/secured-actuator/samples/job-detail.json -->",
                        "<!-- from: examples/secured-actuator/samples/health.json -->");
        assertThat(readme).as("the Quickstart shows the whole app that QuickstartIT runs").contains(
                "<!-- from: examples/quickstart/pom.xml#quickstart bom -->",
                "<!-- from: examples/quickstart/pom.xml#quickstart dependencies -->",
                "<!-- from: examples/quickstart/src/main/java/com/example/billing/BillingApplication.java -->",
                "<!-- from: examples/quickstart/src/main/java/com/example/billing/InvoiceJob.java -->",
                "<!-- from: examples/quickstart/src/main/resources/application.properties -->");
        assertThat(checked).isGreaterThanOrEqualTo(12);
    }

    /** The README's first screen: the problem, then one annotated {@code @Scheduled} method, then how to get it. */
    @Test
    void theAnnotatedMethodComesBeforeHowToGetIt() {
        List<String> lines = readme.lines().toList();
        int annotated = lines.indexOf("    @ClusterSingleton(name = \"invoices\", lease = \"10m\")");
        int install = lines.indexOf("## Quickstart (Spring Boot)");
        assertThat(annotated).as("line of the annotated method in README.md (0-based)").isBetween(0, 59);
        assertThat(install).as("the Quickstart's install steps come after the method").isGreaterThan(annotated);
    }

    @Test
    void everyPropertiesBlockBindsToRealProperties() throws IOException {
        Set<String> known = new TreeSet<>();
        Set<String> maps = new TreeSet<>();
        loadMetadata(known, maps);
        assertThat(known).contains("jobguard.namespace", "spring.data.redis.host");
        int blocks = 0;
        for (Block block : blocks()) {
            if (!block.lang().equals("properties")) {
                continue;
            }
            blocks++;
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : block.text().split("\n")) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                int eq = trimmed.indexOf('=');
                assertThat(eq).as("'%s' is key=value", line).isPositive();
                String key = trimmed.substring(0, eq);
                String value = line.substring(line.indexOf('=') + 1);
                assertThat(value).as("value of %s: a .properties file has no end-of-line comments", key)
                        .doesNotContain("#");
                assertThat(value).as("value of %s has no blanks at its ends", key).isEqualTo(value.strip());
                assertThat(known.contains(key) || maps.stream().anyMatch(m -> key.startsWith(m + ".")
                        || key.startsWith(m + "["))).as("%s: %s is a property Spring Boot or job-guard declares", block.page(), key)
                        .isTrue();
                values.put(key, value);
            }
            JobGuardProperties bound = new Binder(new MapConfigurationPropertySource(values))
                    .bindOrCreate("jobguard", JobGuardProperties.class);
            if (values.containsKey("jobguard.namespace")) {
                assertThat(bound.namespace()).isEqualTo(values.get("jobguard.namespace"));
            }
        }
        assertThat(blocks).as("properties blocks in the pages").isGreaterThanOrEqualTo(4);
    }

    /** The fenced blocks of every checked page: README.md, CONTRIBUTING.md, examples/README.md, docs/*.md. */
    private List<Block> blocks() {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
                ROOT.resolve("examples/README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + ROOT.resolve("docs").toAbsolutePath().normalize(), e);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = FENCE.matcher(read(page));
            while (m.find()) {
                blocks.add(new Block(ROOT.relativize(page).toString(), m.group(2), m.group(3), m.group(4)));
            }
        }
        return blocks;
    }

    /** The lines between {@code README: <name>} and the next {@code end} marker, de-indented. */
    private static String section(String file, String name, String path) {
        List<String> lines = new ArrayList<>();
        boolean inside = false;
        for (String line : file.split("\n", -1)) {
            if (line.contains("README: " + name)) {
                inside = true;
            } else if (inside && (line.strip().equals("// end") || line.strip().equals("<!-- end -->"))) {
                break;
            } else if (inside) {
                lines.add(line);
            }
        }
        assertThat(lines).as("section '%s' in %s", name, path).isNotEmpty();
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return out.toString();
    }

    private static void loadMetadata(Set<String> known, Set<String> maps) throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        for (String resource : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            Enumeration<URL> urls = ReadmeTest.class.getClassLoader().getResources(resource);
            while (urls.hasMoreElements()) {
                try (InputStream in = urls.nextElement().openStream()) {
                    for (JsonNode property : json.readTree(in).path("properties")) {
                        String name = property.path("name").asString();
                        known.add(name);
                        if (property.path("type").asString("").startsWith("java.util.Map")) {
                            maps.add(name);
                        }
                    }
                }
            }
        }
    }

    private static String read(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path.toAbsolutePath().normalize(), e);
        }
    }

    private record Block(String page, String from, String lang, String text) {
    }
}
