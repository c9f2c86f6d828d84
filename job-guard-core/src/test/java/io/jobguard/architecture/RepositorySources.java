package io.jobguard.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The repository's checkout as the architecture tests read it: its root (the directory holding docs/architecture.md
 * and the parent pom, wherever the build runs) and its Java source files.
 */
final class RepositorySources {

    private RepositorySources() {
    }

    /**
     * The repository root: this module's parent, wherever the build runs.
     *
     * @return the directory holding docs/architecture.md and the parent pom
     */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/architecture.md")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docs/architecture.md above " + Path.of("").toAbsolutePath());
    }

    /**
     * The Java files under the trees named, in every module, outside build output and Git's directory.
     *
     * @param root  the repository root
     * @param trees the source trees, e.g. {@code src/main/java}
     * @return the files
     * @throws IOException if the checkout cannot be walked
     */
    static List<Path> javaFiles(Path root, String... trees) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> {
                String path = file.toString().replace('\\', '/');
                return path.endsWith(".java") && !path.contains("/target/") && !path.contains("/.git/")
                        && Stream.of(trees).anyMatch(tree -> path.contains("/" + tree + "/"));
            }).toList();
        }
    }
}
