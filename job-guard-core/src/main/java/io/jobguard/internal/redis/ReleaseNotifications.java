package io.jobguard.internal.redis;

import io.jobguard.internal.LocalSignals;
import io.jobguard.store.ReleaseWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Wakes local waiters when a lease is released anywhere in the cluster. One pub/sub subscription
 * per instance, opened on first use; release scripts publish the released resource's topic on it.
 * A missed message costs a waiter at most its fallback poll interval, never correctness: waiters
 * always re-try the store. When the subscription cannot be opened (for example a Redis user
 * without channel rights), watches still receive this node's own releases and waiters poll; one
 * WARN says so and the subscription is retried at most once a minute.
 *
 * <p>Internal API: not for use outside job-guard, may change without notice.
 */
public final class ReleaseNotifications implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseNotifications.class);

    private final RedisConnectionFactory connectionFactory;
    private final String channel;
    private final LocalSignals<String> signals = new LocalSignals<>(Duration.ofDays(365));
    private final Object startLock = new Object();
    /** After a failed subscription, the next attempt waits this long (the WARN is logged once). */
    private static final long RETRY_SUBSCRIPTION_NANOS = TimeUnit.MINUTES.toNanos(1);

    private RedisMessageListenerContainer container;
    private boolean closed;
    private boolean failedBefore;
    private long failedAtNanos;

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
        try {
            ensureSubscribed();
        } catch (RuntimeException e) {
            // Typically an ACL user without channel rights (Redis 7's default for new users): waiters
            // still see local releases at once and everything else by polling, so this is no store failure.
            subscriptionFailed(e);
        }
        return signals.watch(topic);
    }

    private void subscriptionFailed(RuntimeException e) {
        boolean report;
        synchronized (startLock) {
            failedAtNanos = System.nanoTime();
            report = !failedBefore;
            failedBefore = true;
        }
        if (report) {
            log.warn("job-guard: cannot subscribe to release notifications on channel '{}' ({}); waiting firings "
                    + "and batches poll instead (grant the Redis user this channel, e.g. ACL SETUSER <user> "
                    + "&{}, to be woken at once)", channel, rootMessage(e), channel);
        } else {
            log.debug("job-guard: subscribing to channel '{}' failed again: {}", channel, rootMessage(e));
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    /**
     * Signals every local watch of a topic, as if the message had arrived (used after local
     * releases so that waiters on this node need not wait for the round trip).
     *
     * @param topic the released topic
     */
    public void signal(String topic) {
        signals.signal(topic);
    }

    private void ensureSubscribed() {
        RedisMessageListenerContainer c;
        synchronized (startLock) {
            if (container != null || closed) {
                return;
            }
            if (failedBefore && System.nanoTime() - failedAtNanos < RETRY_SUBSCRIPTION_NANOS) {
                return;
            }
            c = new RedisMessageListenerContainer();
            c.setConnectionFactory(connectionFactory);
            // Our handler only flips flags, so it can run on the client's I/O thread.
            c.setTaskExecutor(Runnable::run);
            // A blocking client (Jedis) subscribes on this executor and keeps its thread for as long as the
            // subscription lives: never the caller's thread, which would block the first waiter forever.
            SimpleAsyncTaskExecutor subscriber = new SimpleAsyncTaskExecutor("jobguard-release-subscription-");
            subscriber.setDaemon(true);
            c.setSubscriptionExecutor(subscriber);
            c.addMessageListener((message, pattern) ->
                    signal(new String(message.getBody(), StandardCharsets.UTF_8)), new ChannelTopic(channel));
            c.afterPropertiesSet();
            container = c; // close() stops it even while it is starting
        }
        // started outside the lock: while Redis is down a start may wait for the subscription, and close() (a node
        // shutting down) must not wait for Redis behind it
        try {
            c.start();
        } catch (RuntimeException e) {
            synchronized (startLock) {
                if (container == c) {
                    container = null;
                }
            }
            destroyQuietly(c);
            throw e;
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
            destroyQuietly(c);
        }
    }

    private static void destroyQuietly(RedisMessageListenerContainer c) {
        try {
            c.stop();
            c.destroy();
        } catch (Exception e) {
            log.debug("job-guard: closing the release subscription failed", e);
        }
    }
}
