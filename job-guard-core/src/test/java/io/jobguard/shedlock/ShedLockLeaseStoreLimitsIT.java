package io.jobguard.shedlock;

import io.jobguard.store.AcquireResult;
import io.jobguard.store.JobId;
import io.jobguard.store.RunLeaseRequest;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the ShedLock bridge cannot do, and says so instead of pretending. */
class ShedLockLeaseStoreLimitsIT {

    private final JobId job = new JobId("limits", "job-" + UUID.randomUUID().toString().substring(0, 8));

    private RunLeaseRequest request(String node) {
        return new RunLeaseRequest(job, Instant.parse("2026-11-22T12:00:00Z"), UUID.randomUUID().toString(), node,
                Duration.ofSeconds(30), Duration.ofSeconds(30), 5);
    }

    @Test
    void withAProviderThatCannotExtendRenewalReportsTheLeaseLost() {
        LockProvider jdbc = ShedLockDatabase.get().provider("plain");
        // A provider whose locks only unlock, like ShedLock providers that are not ExtensibleLockProvider.
        LockProvider plain = configuration -> jdbc.lock(configuration).map(lock -> (SimpleLock) lock::unlock);
        try (ShedLockLeaseStore store = ShedLockLeaseStore.create(plain)) {
            RunLeaseRequest r = request("plain");
            assertThat(store.acquireRun(r).status()).isEqualTo(AcquireResult.Status.ACQUIRED);
            assertThat(store.renewRun(r)).isFalse();
            assertThat(store.releaseRun(r, Duration.ZERO)).isTrue();
        }
    }

    @Test
    void noFencingTokensAndTheLocalClockAsServerTime() {
        Clock fixed = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), java.time.ZoneOffset.UTC);
        try (ShedLockLeaseStore store = ShedLockLeaseStore.create(ShedLockDatabase.get().provider("a"), fixed,
                Duration.ofMillis(100))) {
            assertThat(store.supportsFencing()).isFalse();
            assertThat(store.serverTime()).isEqualTo(fixed.instant());
            AcquireResult result = store.acquireRun(request("a"));
            assertThat(result.fencingToken()).isEqualTo(-1);
            assertThat(result.acquiredAt()).isEqualTo(fixed.instant());
        }
    }

    @Test
    void badSettingsAreRejectedNamingTheCulprit() {
        LockProvider provider = ShedLockDatabase.get().provider("a");
        assertThatThrownBy(() -> ShedLockLeaseStore.create(provider, Clock.systemUTC(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pollInterval");
    }
}
