package io.jobguard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every public top-level type of the library modules (every {@code job-guard-*} module) has a class
 * Javadoc whose first sentence states one guarantee or purpose in at most {@value #MAX_WORDS} words; the details
 * follow in the next sentences. The first sentence is what Javadoc shows in package and index summaries.
 */
class JavadocFirstSentenceTest {

    /** The longest first sentence allowed, in words; the median first sentence has about 20. */
    static final int MAX_WORDS = 35;

    private static final Pattern INLINE_LINK =
            Pattern.compile("\\{@link(?:plain)?\\s+([^\\s}(]*(?:\\([^)]*\\))?)\\s*([^}]*)}");
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@\\w+\\s*([^}]*)}");
    private static final Pattern SENTENCE_END = Pattern.compile("\\.(?=\\s|$)");

    @Test
    void everyPublicTypeHasAShortFirstSentence() throws IOException {
        Path root = RepositorySources.root();
        Map<String, String> tooLong = new TreeMap<>();
        Map<String, String> undocumented = new TreeMap<>();
        int checked = 0;
        for (Path file : RepositorySources.javaFiles(root, "src/main/java")) {
            String relative = root.relativize(file).toString().replace('\\', '/');
            String name = file.getFileName().toString();
            if (!relative.startsWith("job-guard-") || name.equals("package-info.java")
                    || name.equals("module-info.java")) {
                continue;
            }
            String type = name.substring(0, name.length() - ".java".length());
            String source = Files.readString(file);
            Matcher declaration = Pattern.compile("(?m)^public\\s+(?:(?:final|abstract|sealed|non-sealed|static|strictfp)\\s+)*"
                    + "(?:class|interface|enum|record|@interface)\\s+" + Pattern.quote(type) + "\\b").matcher(source);
            if (!declaration.find()) {
                continue;
            }
            checked++;
            String javadoc = classJavadoc(source.substring(0, declaration.start()));
            if (javadoc == null) {
                undocumented.put(relative, "no class Javadoc");
                continue;
            }
            String sentence = firstSentence(javadoc);
            int words = sentence.isEmpty() ? 0 : sentence.split("\\s+").length;
            if (words == 0) {
                undocumented.put(relative, "an empty class Javadoc");
            } else if (words > MAX_WORDS) {
                tooLong.put(relative, words + " words: " + sentence);
            }
        }
        assertThat(checked).as("public top-level types checked").isGreaterThan(100);
        assertThat(undocumented).as("public types without a class Javadoc").isEmpty();
        assertThat(tooLong).as("public types whose Javadoc's first sentence is longer than " + MAX_WORDS + " words")
                .isEmpty();
    }

    @Test
    void theFirstSentenceEndsAtThePeriodBeforeWhitespaceAndCountsLinksAsTheirText() {
        assertThat(firstSentence("""
                 * Runs {@link io.jobguard.JobGuard#fire(String, java.time.Instant) the firing} once, with
                 * {@code a.b}. More text.
                 *
                 * @param x ignored
                """)).isEqualTo("Runs the firing once, with a.b.");
        assertThat(classJavadoc("import a.B;\n/** Kept. */\n// why\n@Ann(x = {1, 2})\n")).contains("Kept.");
        assertThat(classJavadoc("/** A file comment. */\npackage a;\nimport a.B;\n")).isNull();
    }

    /**
     * The body of the Javadoc comment directly before a type declaration, with only annotations and line comments
     * between them.
     *
     * @param beforeDeclaration the source text up to the declaration's modifiers
     * @return the comment's body, or null when the type has none
     */
    static String classJavadoc(String beforeDeclaration) {
        int start = beforeDeclaration.lastIndexOf("/**");
        int end = start < 0 ? -1 : beforeDeclaration.indexOf("*/", start);
        if (end < 0) {
            return null;
        }
        String between = beforeDeclaration.substring(end + 2).replaceAll("//[^\\n]*", "");
        StringBuilder outsideParentheses = new StringBuilder();
        int depth = 0;
        for (char c : between.toCharArray()) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0 && c != ')') {
                outsideParentheses.append(c);
            }
        }
        String rest = outsideParentheses.toString();
        return rest.contains(";") || rest.contains("}") ? null : beforeDeclaration.substring(start + 3, end);
    }

    /**
     * The first sentence of a Javadoc body as a reader sees it: block tags (from a line starting {@code @param} or
     * the like) dropped, inline links as their label (or their target), other inline tags as their text, HTML tags
     * dropped, up to the first period followed by whitespace.
     *
     * @param javadoc the comment's body, with its leading asterisks
     * @return the sentence, whitespace collapsed
     */
    static String firstSentence(String javadoc) {
        String text = javadoc.replaceAll("(?m)^\\s*\\*", " ");
        text = text.split("(?m)^\\s*@[a-z]+\\b", 2)[0];
        text = INLINE_LINK.matcher(text).replaceAll(m -> Matcher.quoteReplacement(
                m.group(2).isBlank() ? m.group(1) : m.group(2)));
        text = INLINE_TAG.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
        text = text.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip();
        Matcher end = SENTENCE_END.matcher(text);
        return end.find() ? text.substring(0, end.end()) : text;
    }
}
