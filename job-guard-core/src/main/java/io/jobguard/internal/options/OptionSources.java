package io.jobguard.internal.options;

import java.util.Objects;

/**
 * The sources of a framework's jobs besides their annotation: each job's own settings and the global
 * defaults (Spring Boot's {@code jobguard.jobs.<name>.*} and {@code jobguard.*}).
 *
 * @param own      each job's own settings, looked up by the job's resolved name
 * @param defaults the global defaults
 */
public record OptionSources(OptionSource own, OptionSource defaults) {

    /** No settings besides the annotation. */
    public static final OptionSources NONE = new OptionSources(OptionSource.NONE, OptionSource.NONE);

    /** Checks both sources are given. */
    public OptionSources {
        Objects.requireNonNull(own, "own");
        Objects.requireNonNull(defaults, "defaults");
    }
}
