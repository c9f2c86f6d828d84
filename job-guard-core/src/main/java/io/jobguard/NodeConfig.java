package io.jobguard;

import io.jobguard.internal.Names;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * What identifies this node to the rest of the cluster, shared by the run engine
 * ({@link JobGuardConfig#node()}), batch locks ({@code BatchLockConfig#node()}) and the ShedLock
 * provider ({@code JobGuardLockProvider.Builder#node}): the one place a node id is configured and
 * validated. Immutable, every instance is valid; value semantics. Build with {@link #builder()},
 * {@link #defaults()} or {@link #toBuilder()}.
 */
public final class NodeConfig {

    private final String nodeId;

    private NodeConfig(Builder b) {
        this.nodeId = b.nodeId;
    }

    /**
     * The defaults: node id {@code hostname:pid} ({@link #defaultNodeId()}).
     *
     * @return the default node configuration
     */
    public static NodeConfig defaults() {
        return builder().build();
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder seeded with this configuration.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.nodeId = nodeId;
        return b;
    }

    /**
     * The default node id: {@code hostname:pid}.
     *
     * @return the node id of this JVM
     */
    public static String defaultNodeId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        String runtime = ManagementFactory.getRuntimeMXBean().getName();
        long pid = ProcessHandle.current().pid();
        return host + ":" + (pid > 0 ? pid : runtime);
    }

    /**
     * This node's identity, recorded with every lease, batch lock and ShedLock lock.
     *
     * @return the node id
     */
    public String nodeId() {
        return nodeId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeConfig other && nodeId.equals(other.nodeId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodeId);
    }

    @Override
    public String toString() {
        return "NodeConfig[nodeId=" + nodeId + "]";
    }

    /** Builds a {@link NodeConfig}; every setter validates its value at once. Not thread-safe. */
    public static final class Builder {
        private String nodeId;

        private Builder() {
        }

        /**
         * Sets this node's identity.
         *
         * @param nodeId the node id: 1 to 200 characters, no whitespace at either end, no control
         *               characters, no braces (default {@code hostname:pid}, see {@link #defaultNodeId()})
         * @return this builder
         * @throws IllegalArgumentException naming {@code nodeId} and the value when it breaks these rules
         */
        public Builder nodeId(String nodeId) {
            this.nodeId = Names.name(nodeId, "nodeId");
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return the node configuration
         * @throws IllegalArgumentException if the default node id of this host breaks the name rules
         */
        public NodeConfig build() {
            if (nodeId == null) {
                nodeId(defaultNodeId());
            }
            return new NodeConfig(this);
        }
    }
}
