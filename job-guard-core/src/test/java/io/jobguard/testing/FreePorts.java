package io.jobguard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback port helpers. A port found free may still be taken before the server binds it: callers retry. */
final class FreePorts {

    static final String LOOPBACK = "127.0.0.1";

    /** Redis Cluster talks to peers on port + 10000, so a node's port must leave room for that. */
    private static final int CLUSTER_BUS_OFFSET = 10_000;
    private static final int CLUSTER_PORT_MIN = 20_000;
    private static final int CLUSTER_PORT_MAX = 65_535 - CLUSTER_BUS_OFFSET;

    private FreePorts() {
    }

    /** A port the OS considers free right now. */
    static int any() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free loopback port", e);
        }
    }

    /**
     * A port that is free together with its cluster bus port. Picked at random from a range below the
     * usual ephemeral range, because an ephemeral port + 10000 would often not be a valid port at all.
     */
    static int withClusterBus() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = random.nextInt(CLUSTER_PORT_MIN, CLUSTER_PORT_MAX);
            if (bindable(port) && bindable(port + CLUSTER_BUS_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("No free port pair (port, port + 10000) found for a cluster node");
    }

    /** Whether something accepts TCP connections on the loopback port. */
    static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(LOOPBACK, port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
