package io.jobguard.internal.redis;

import io.jobguard.store.ReleaseWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wakes local waiters when a lease is released anywhere in the cluster. One pub/sub subscription
 * per instance, opened on first use; release scripts publish the released resource's topic on it.
 * A missed message costs a waiter at most its fallback poll interval, never correctness: waiters
 * always re-try the store.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class ReleaseNotifications implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseNotifications.class);

    private final RedisConnectionFactory connectionFactory;
    private final String channel;
    private final ConcurrentHashMap<String, Set<Watch>> watches = new ConcurrentHashMap<>();
    private final Object startLock = new Object();
    private RedisMessageListenerContainer container;
    private boolean closed;

    /**
     * Creates the hub; nothing is subscribed until the first {@link #watch(String)}.
     *
     * @param connectionFactory where to subscribe
     * @param channel           the channel release scripts publish on
     */
    public ReleaseNotifications(RedisConnectionFactory connectionFactory, String channel) {
        this.connectionFactory = connectionFactory;
        this.channel = channel;
    }

    /**
     * Starts watching releases of one topic.
     *
     * @param topic the message the release script publishes
     * @return the watch; close it when done
     */
    public ReleaseWatch watch(String topic) {
        ensureSubscribed();
        Watch watch = new Watch(topic);
        watches.computeIfAbsent(topic, t -> ConcurrentHashMap.newKeySet()).add(watch);
        return watch;
    }

    /**
     * Signals every local watch of a topic, as if the message had arrived (used after local
     * releases so that waiters on this node need not wait for the round trip).
     *
     * @param topic the released topic
     */
    public void signal(String topic) {
        Set<Watch> set = watches.get(topic);
        if (set != null) {
            set.forEach(Watch::signal);
        }
    }

    private void ensureSubscribed() {
        synchronized (startLock) {
            if (container != null || closed) {
                return;
            }
            RedisMessageListenerContainer c = new RedisMessageListenerContainer();
            c.setConnectionFactory(connectionFactory);
            // Our handler only flips flags, so it can run on the client's I/O thread.
            c.setTaskExecutor(Runnable::run);
            c.addMessageListener((message, pattern) ->
                    signal(new String(message.getBody(), StandardCharsets.UTF_8)), new ChannelTopic(channel));
            c.afterPropertiesSet();
            c.start();
            container = c;
        }
    }

    @Override
    public void close() {
        RedisMessageListenerContainer c;
        synchronized (startLock) {
            closed = true;
            c = container;
            container = null;
        }
        if (c != null) {
            try {
                c.stop();
                c.destroy();
            } catch (Exception e) {
                log.debug("job-guard: closing the release subscription failed", e);
            }
        }
    }

    private final class Watch implements ReleaseWatch {
        private final String topic;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition released = lock.newCondition();
        private boolean signalled;

        Watch(String topic) {
            this.topic = topic;
        }

        void signal() {
            lock.lock();
            try {
                signalled = true;
                released.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean await(Duration max) throws InterruptedException {
            long nanos = max.toNanos();
            lock.lock();
            try {
                while (!signalled) {
                    if (nanos <= 0) {
                        return false;
                    }
                    nanos = released.awaitNanos(nanos);
                }
                signalled = false;
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            watches.computeIfPresent(topic, (t, set) -> {
                set.remove(this);
                return set.isEmpty() ? null : set;
            });
        }
    }

    /**
     * A watch that never receives signals; waiting on it is a plain bounded sleep. For stores
     * without notifications.
     *
     * @return a watch without signals
     */
    public static ReleaseWatch pollingOnly() {
        return new ReleaseWatch() {
            @Override
            public boolean await(Duration max) throws InterruptedException {
                TimeUnit.NANOSECONDS.sleep(Math.max(0, max.toNanos()));
                return false;
            }

            @Override
            public void close() {
            }
        };
    }
}
