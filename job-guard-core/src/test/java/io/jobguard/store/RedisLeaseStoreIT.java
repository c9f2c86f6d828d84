package io.jobguard.store;

import io.jobguard.redis.RedisLeaseStore;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.Set;

/** The lease-store contract on the reference store, one store instance per node, one real Redis. */
@WithRedis
class RedisLeaseStoreIT extends LeaseStoreContract {

    private final LettuceConnectionFactory connectionFactory;

    RedisLeaseStoreIT(RedisServerProcess redis) {
        this.connectionFactory = redis.connectionFactory(Duration.ofSeconds(2));
    }

    @Override
    protected void closeBackend() {
        connectionFactory.destroy();
    }

    @Override
    protected Set<Class<?>> capabilities() {
        return Set.of(RunRecovery.class, OutcomeRecording.class, FleetView.class, RunHistory.class, OperatorControl.class);
    }

    @Override
    protected LeaseStore newStore(String nodeId) {
        return RedisLeaseStore.create(connectionFactory, "jgcontract");
    }
}
