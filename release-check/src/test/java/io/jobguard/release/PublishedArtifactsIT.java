package io.jobguard.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Runs after every published module was packaged (this module depends on them) and fails the build when a module
 * of the parent's {@code <modules>} is neither complete for publishing nor marked unpublished, so a module added
 * later cannot be forgotten. Complete means: a jar module produced its jar, sources jar and javadoc jar, and the
 * POM has a name and description and, itself or from the parent, url, license, scm and developers; the BOM's
 * published (flattened) POM has no parent, manages exactly the published jar modules and nothing else.
 * Unpublished means {@code maven.deploy.skip} and {@code maven.install.skip} are true in the module's POM, and no
 * module below it sets them back.
 */
class PublishedArtifactsIT {

    private static final List<String> INHERITABLE = List.of("url", "licenses/license/name", "scm/connection",
            "scm/url", "developers/developer/name");

    private final Path root = Path.of(System.getProperty("jobguard.root", "..")).toAbsolutePath().normalize();

    @Test
    void everyModuleIsPublishedCompleteOrMarkedUnpublished() throws Exception {
        Element parent = pom(root);
        String version = text(parent, "version");
        List<String> problems = new ArrayList<>();
        requireFields(parent, parent, "the parent POM", problems);

        Set<String> publishedJars = new TreeSet<>();
        List<Path> boms = new ArrayList<>();
        for (String module : children(parent, "modules/module")) {
            Path dir = root.resolve(module);
            Element pom = pom(dir);
            String artifactId = text(pom, "artifactId");
            if (unpublished(pom)) {
                checkNothingBelowIsPublished(dir, pom, problems);
                continue;
            }
            requireFields(pom, parent, module, problems);
            String packaging = text(pom, "packaging").isEmpty() ? "jar" : text(pom, "packaging");
            if (packaging.equals("jar")) {
                publishedJars.add(artifactId);
                Path target = dir.resolve("target");
                requireJar(target.resolve(artifactId + "-" + version + ".jar"), ".class", problems);
                requireJar(target.resolve(artifactId + "-" + version + "-sources.jar"), ".java", problems);
                requireJar(target.resolve(artifactId + "-" + version + "-javadoc.jar"), "index.html", problems);
            } else if (packaging.equals("pom") && artifactId.endsWith("-bom")) {
                boms.add(dir.resolve("target/.flattened-pom.xml"));
            } else {
                problems.add(module + ": packaging " + packaging + " is neither a jar nor the BOM; publish it"
                        + " completely (and teach this test) or set maven.deploy.skip and maven.install.skip");
            }
        }
        assertThat(boms).as("one BOM module among %s", children(parent, "modules/module")).hasSize(1);
        checkBom(boms.get(0), version, publishedJars, problems);
        assertThat(publishedJars).as("the published jar modules").contains("job-guard-core", "job-guard-spring",
                "job-guard-quartz");
        assertThat(problems).as("modules not ready to publish (build with mvn -B -ntp verify from the root)").isEmpty();
    }

    private void checkBom(Path flattened, String version, Set<String> publishedJars, List<String> problems)
            throws Exception {
        if (!Files.isRegularFile(flattened)) {
            problems.add(flattened + " missing: the BOM's published POM is made by flatten-maven-plugin");
            return;
        }
        Element bom = parse(flattened);
        if (first(bom, "parent") != null) {
            problems.add(flattened + " has a <parent>: importing the BOM would pull the parent's dependencyManagement");
        }
        requireFields(bom, bom, "the BOM's published POM", problems);
        Set<String> managed = new TreeSet<>();
        Node dependencies = first(bom, "dependencyManagement/dependencies");
        if (dependencies != null) {
            for (Node d = dependencies.getFirstChild(); d != null; d = d.getNextSibling()) {
                if (d instanceof Element dependency) {
                    String coordinates = text(dependency, "groupId") + ":" + text(dependency, "artifactId");
                    String v = text(dependency, "version");
                    if (!text(dependency, "groupId").equals("io.jobguard")
                            || !(v.equals(version) || v.equals("${project.version}"))
                            || !text(dependency, "scope").isEmpty()) {
                        problems.add("the BOM manages " + coordinates + ":" + v + " " + text(dependency, "scope")
                                + "; it may manage only job-guard's published modules at " + version);
                    }
                    managed.add(text(dependency, "artifactId"));
                }
            }
        }
        if (!managed.equals(publishedJars)) {
            problems.add("the BOM manages " + managed + " but the published jar modules are " + publishedJars);
        }
    }

    private void checkNothingBelowIsPublished(Path dir, Element pom, List<String> problems) throws Exception {
        for (String module : children(pom, "modules/module")) {
            Element child = pom(dir.resolve(module));
            for (String property : List.of("maven.deploy.skip", "maven.install.skip")) {
                if (text(child, "properties/" + property).equals("false")) {
                    problems.add(dir.resolve(module) + " sets " + property + " back to false under an unpublished module");
                }
            }
            checkNothingBelowIsPublished(dir.resolve(module), child, problems);
        }
    }

    private static boolean unpublished(Element pom) {
        return text(pom, "properties/maven.deploy.skip").equals("true")
                && text(pom, "properties/maven.install.skip").equals("true");
    }

    private static void requireFields(Element pom, Element parent, String what, List<String> problems) {
        for (String field : List.of("name", "description")) {
            if (text(pom, field).isBlank()) {
                problems.add(what + ": no <" + field + ">");
            }
        }
        for (String field : INHERITABLE) {
            if (text(pom, field).isBlank() && text(parent, field).isBlank()) {
                problems.add(what + ": no <" + field.replace("/", "><") + ">, nor in the parent");
            }
        }
    }

    private static void requireJar(Path jar, String entrySuffix, List<String> problems) throws IOException {
        if (!Files.isRegularFile(jar)) {
            problems.add(jar + " missing");
            return;
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            if (zip.stream().map(ZipEntry::getName).noneMatch(n -> n.endsWith(entrySuffix))) {
                problems.add(jar + " has no " + entrySuffix + " entry");
            }
        }
    }

    private static Element pom(Path dir) throws Exception {
        return parse(dir.resolve("pom.xml"));
    }

    private static Element parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(file.toFile());
        return document.getDocumentElement();
    }

    private static List<String> children(Element element, String path) {
        List<String> values = new ArrayList<>();
        int slash = path.lastIndexOf('/');
        Node container = first(element, path.substring(0, slash));
        if (container != null) {
            for (Node n = container.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(path.substring(slash + 1))) {
                    values.add(e.getTextContent().strip());
                }
            }
        }
        return values;
    }

    private static String text(Element element, String path) {
        Node node = first(element, path);
        return node == null ? "" : node.getTextContent().strip();
    }

    /** The first element along a path of direct children, e.g. {@code scm/url}; never a deeper namesake. */
    private static Node first(Element element, String path) {
        Node current = element;
        for (String step : path.split("/")) {
            Node found = null;
            for (Node n = current.getFirstChild(); n != null && found == null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(step)) {
                    found = n;
                }
            }
            if (found == null) {
                return null;
            }
            current = found;
        }
        return current;
    }
}
