package io.jobguard;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobOptionsTest {

    @Test
    void defaultsAreReturnKeepAliveWaitForEqualsLeaseAndNoCooldown() {
        JobOptions options = JobOptions.builder("job", Duration.ofSeconds(30)).build();
        assertThat(options.type()).isEqualTo(GuardType.RETURN);
        assertThat(options.keepAlive()).isTrue();
        assertThat(options.waitFor()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.cooldown()).isZero();
        assertThat(options.busyGrace()).isEqualTo(JobOptions.DEFAULT_BUSY_GRACE).isEqualTo(Duration.ofSeconds(1));
        assertThat(options.toBuilder().build()).isEqualTo(options);
    }

    @Test
    void busyGraceDefaultsToOneSecondCappedAtTheLeaseAndZeroIsStrict() {
        assertThat(JobOptions.builder("short", Duration.ofMillis(300)).build().busyGrace())
                .isEqualTo(Duration.ofMillis(300));
        assertThat(JobOptions.builder("strict", Duration.ofSeconds(30)).busyGrace(Duration.ZERO).build().busyGrace())
                .isZero();
        assertThat(JobOptions.builder("long", Duration.ofSeconds(3)).busyGrace(Duration.ofSeconds(5)).build()
                .busyGrace()).as("an explicit grace is kept as given").isEqualTo(Duration.ofSeconds(5));
        assertThat(JobOptions.builder("six", Duration.ofMinutes(1)).type(GuardType.WAIT).waitFor(null).cooldown(null)
                .busyGrace(null).build())
                .as("null means the default").isEqualTo(JobOptions.builder("six", Duration.ofMinutes(1))
                        .type(GuardType.WAIT).build());
    }

    @Test
    void invalidOptionsNameTheJobAndTheValue() {
        assertThatThrownBy(() -> JobOptions.builder(null, Duration.ofSeconds(1)).build())
                .hasMessage("job name must not be blank");
        assertThatThrownBy(() -> JobOptions.builder("bad\nname", Duration.ofSeconds(1)).build())
                .hasMessageContaining("control character");
        assertThatThrownBy(() -> JobOptions.builder("j", Duration.ofSeconds(-1)).build())
                .hasMessage("lease of job 'j' must be positive, got PT-1S");
        assertThatThrownBy(() -> JobOptions.builder("j", null).build())
                .hasMessage("lease of job 'j' must be positive, got null");
        assertThatThrownBy(() -> JobOptions.builder("j", Duration.ofSeconds(1)).type(null).build())
                .hasMessage("type of job 'j' is null");
        assertThatThrownBy(() -> JobOptions.builder("j", Duration.ofSeconds(1)).cooldown(Duration.ofSeconds(-2)).build())
                .hasMessage("cooldown of job 'j' must not be negative, got PT-2S");
        assertThatThrownBy(() -> JobOptions.builder("j", Duration.ofSeconds(1)).busyGrace(Duration.ofMillis(-5)).build())
                .hasMessage("busyGrace of job 'j' must not be negative, got PT-0.005S");
    }

    @Test
    void configRejectsBadSettingsByName() {
        assertThatThrownBy(() -> JobGuardConfig.builder().namespace("").build())
                .hasMessage("namespace must not be blank");
        assertThatThrownBy(() -> JobGuardConfig.builder().skewTolerance(Duration.ZERO).build())
                .hasMessage("skewTolerance must be positive, got PT0S");
        assertThatThrownBy(() -> JobGuardConfig.builder().historySize(-1).build())
                .hasMessage("historySize must not be negative, got -1");
        JobGuardConfig config = JobGuardConfig.builder().namespace("shop").build();
        assertThat(config.toBuilder().build()).isEqualTo(config);
        assertThat(config.nodeId()).contains(":");
    }
}
