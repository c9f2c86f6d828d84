package io.jobguard.fencing;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Includes the fence table's DDL ({@code io/jobguard/fencing/*.sql}) in a native image built with Spring AOT, so an
 * application that creates the table from the copy in the jar (for example
 * {@code spring.sql.init.schema-locations=classpath:io/jobguard/fencing/fence-postgresql.sql}) finds it there as on
 * the class path. job-guard itself never reads these files. Listed in job-guard-core's
 * {@code META-INF/spring/aot.factories}; Spring instantiates it through that file only.
 */
final class FenceDdlRuntimeHints implements RuntimeHintsRegistrar {

    /** The pattern of the DDL files' resource names. */
    static final String DDL = "io/jobguard/fencing/*.sql";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(DDL);
    }
}
