package io.jobguard.testing;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on a free loopback port for fault tests: slow links, stalled connections, lost replies
 * and cut links, between a real client and a real server (for example Lettuce and a harness
 * {@code redis-server}).
 *
 * <p>Every accepted client connection becomes a {@link Link} to the target. Each link forwards the two
 * directions independently, in the {@link Mode} the link is in: {@link Mode#FORWARD} (after the
 * proxy-wide {@linkplain #delay(Duration, Duration) delay} of that direction), {@link Mode#PAUSE} (bytes
 * are read and held, and delivered in order on {@link #resume()}: a stall, as a frozen router would cause),
 * {@link Mode#BLACKHOLE}
 * (bytes are read and discarded both ways: a partition in which the client's writes still succeed), or
 * {@link Mode#DROP_REPLIES} (requests reach the server, its replies are discarded: a lost reply). The
 * proxy-wide operations set the mode of every open link and of links accepted later; the methods of
 * {@link Link} change one link only, which is how a test stalls one connection while others keep working.
 * {@link #dropConnections()} closes every open link (the client sees the connection end).
 *
 * <p>A delay holds each chunk of bytes until that long after the proxy read it, so chunks in flight overlap
 * as on a real link (a delay adds latency, not a limit on throughput). A delay below a millisecond is not
 * rounded up to one: the writer parks until shortly before the chunk is due and spins the rest, which costs
 * CPU only while a chunk is that close to due. The proxy's own thread hand-offs still add to every delay.
 *
 * <p>Mode changes take effect at once, also for bytes already read and not yet written. Threads are daemon
 * threads; {@link #close()} stops them and closes every socket. Thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

    /** What a link does with the bytes it reads. */
    public enum Mode {
        /** Forward both directions (after the proxy's delay). */
        FORWARD,
        /** Hold the bytes of both directions until the mode changes again; nothing is lost. */
        PAUSE,
        /** Discard the bytes of both directions. */
        BLACKHOLE,
        /** Forward client to server, discard server to client. */
        DROP_REPLIES
    }

    private static final int BUFFER_SIZE = 16 * 1024;
    /** Waits longer than this wait on the lock (mode changes wake them); shorter ones park. */
    private static final long LOCK_WAIT_ABOVE_NANOS = 3_000_000;
    /** The last stretch of a wait is spun: a park can overshoot by the OS timer slack (about 50 µs on Linux). */
    private static final long SPIN_NANOS = 80_000;
    private static final AtomicInteger PROXY_IDS = new AtomicInteger();

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final String name;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicInteger linkIds = new AtomicInteger();
    private final AtomicLong accepted = new AtomicLong();
    private final Object lock = new Object();
    private Mode defaultMode = Mode.FORWARD;
    private long toServerDelayNanos;
    private long toClientDelayNanos;
    private volatile byte[] pauseMarker;
    private volatile boolean closed;
    private volatile boolean refusing;

    private TcpProxy(String targetHost, int targetPort, ServerSocket server) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = server;
        this.name = "tcp-proxy-" + PROXY_IDS.incrementAndGet();
        Thread acceptor = new Thread(this::acceptLoop, name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a proxy on a free loopback port that forwards to the target.
     *
     * @param targetHost the host of the real server
     * @param targetPort the port of the real server
     * @return the started proxy, in {@link Mode#FORWARD} without delay
     */
    public static TcpProxy start(String targetHost, int targetPort) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName(FreePorts.LOOPBACK));
            return new TcpProxy(targetHost, targetPort, server);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open a loopback port for the TCP proxy", e);
        }
    }

    /**
     * The host clients connect to.
     *
     * @return the loopback address
     */
    public String host() {
        return FreePorts.LOOPBACK;
    }

    /**
     * The port clients connect to.
     *
     * @return the proxy's port
     */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Delays every chunk of bytes by this much, in both directions, on every link (open and later): a
     * round trip takes {@code 2 * delay} longer.
     *
     * @param delay the delay; zero for none
     */
    public void delay(Duration delay) {
        delay(delay, delay);
    }

    /**
     * Delays every chunk of bytes by the delay of its direction, on every link (open and later): a round
     * trip takes {@code toServer + toClient} longer.
     *
     * @param toServer the delay of the bytes the client sends; zero for none
     * @param toClient the delay of the bytes the server sends; zero for none
     */
    public void delay(Duration toServer, Duration toClient) {
        if (toServer.isNegative() || toClient.isNegative()) {
            throw new IllegalArgumentException("delays must not be negative: " + toServer + ", " + toClient);
        }
        synchronized (lock) {
            toServerDelayNanos = toServer.toNanos();
            toClientDelayNanos = toClient.toNanos();
            lock.notifyAll();
        }
    }

    /**
     * A started Lettuce connection factory whose links run through this proxy (the caller destroys it).
     *
     * @param commandTimeout how long a command waits for its reply (a pause of the proxy holds it)
     * @return the factory
     */
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        return ConnectionFactories.standalone(new RedisStandaloneConfiguration(host(), port()), commandTimeout, false);
    }

    /** Holds the bytes of every link, open and later, until {@link #resume()}. */
    public void pause() {
        setMode(Mode.PAUSE);
    }

    /** Discards the bytes of every link, open and later, both ways, until {@link #resume()}. */
    public void blackhole() {
        setMode(Mode.BLACKHOLE);
    }

    /** Forwards requests but discards replies on every link, open and later, until {@link #resume()}. */
    public void dropReplies() {
        setMode(Mode.DROP_REPLIES);
    }

    /**
     * Forwards again on every link, open and later (held bytes are delivered); the delay stays. Also ends
     * {@link #pauseLinksCarrying(String)}.
     */
    public void resume() {
        pauseMarker = null;
        setMode(Mode.FORWARD);
    }

    /**
     * From now on, pauses any link (open or later) as soon as its client sends bytes containing
     * {@code marker}; those bytes are held with the rest until {@link #resume()}. This is how a test stalls
     * exactly the connection carrying one command (for example a renewal whose keys name one job) while the
     * others keep working. A marker split across two reads is not seen; markers of a few bytes in one
     * command are read whole in practice.
     *
     * @param marker the text to look for (UTF-8)
     */
    public void pauseLinksCarrying(String marker) {
        pauseMarker = marker.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Sets the mode of every open link and of links accepted later.
     *
     * @param mode the new mode
     */
    public void setMode(Mode mode) {
        synchronized (lock) {
            defaultMode = mode;
            for (Link link : links) {
                link.mode = mode;
            }
            lock.notifyAll();
        }
    }

    /**
     * While on, every new client connection is closed as soon as it is accepted, as if the server refused it; open
     * links keep working. A node behind this proxy sees the server down while others talking to it directly do not.
     *
     * @param refuse whether to refuse new connections
     */
    public void refuseNewLinks(boolean refuse) {
        refusing = refuse;
    }

    /** Closes every open link; clients see their connection end and may reconnect through the proxy. */
    public void dropConnections() {
        for (Link link : links) {
            link.close();
        }
    }

    /**
     * The open links, oldest first.
     *
     * @return a snapshot
     */
    public List<Link> links() {
        List<Link> open = new ArrayList<>();
        for (Link link : links) {
            if (link.isOpen()) {
                open.add(link);
            }
        }
        return open;
    }

    /**
     * How many client connections the proxy has accepted since it started.
     *
     * @return the count, closed links included
     */
    public long acceptedCount() {
        return accepted.get();
    }

    /**
     * Waits until at least {@code count} links are open.
     *
     * @param count   the number of open links to wait for
     * @param timeout how long to wait
     * @return the open links, oldest first
     * @throws IllegalStateException if fewer are open when the timeout passes
     */
    public List<Link> awaitLinks(int count, Duration timeout) {
        if (!Poll.until(timeout, () -> links().size() >= count)) {
            throw new IllegalStateException(name + ": expected " + count + " open links within " + timeout
                    + " but saw " + links().size());
        }
        return links();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // Closing is all we wanted; the accept loop ends either way.
        }
        dropConnections();
    }

    @Override
    public String toString() {
        return name + "[" + host() + ":" + port() + " -> " + targetHost + ":" + targetPort + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            if (refusing) {
                closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
            } catch (IOException e) {
                // The target is down: the client sees its connection closed, as it would see a refusal.
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            Mode mode;
            synchronized (lock) {
                mode = defaultMode;
            }
            Link link = new Link(name + "-link-" + linkIds.incrementAndGet(), client, upstream, mode);
            links.add(link);
            link.start();
            if (closed) {
                link.close();
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing left to do with a socket that will not close.
        }
    }

    /** One proxied client connection. */
    public final class Link {

        private final String linkName;
        private final Socket client;
        private final Socket upstream;
        private volatile Mode mode;
        private volatile boolean open = true;
        private final AtomicLong bytesToServer = new AtomicLong();
        private final AtomicLong bytesToClient = new AtomicLong();

        private Link(String linkName, Socket client, Socket upstream, Mode mode) {
            this.linkName = linkName;
            this.client = client;
            this.upstream = upstream;
            this.mode = mode;
        }

        /**
         * Sets this link's mode only; a later proxy-wide mode change overrides it.
         *
         * @param newMode the new mode
         */
        public void setMode(Mode newMode) {
            synchronized (lock) {
                mode = newMode;
                lock.notifyAll();
            }
        }

        /** Holds this link's bytes until {@link #resume()}: this connection stalls, others do not. */
        public void pause() {
            setMode(Mode.PAUSE);
        }

        /** Discards this link's bytes both ways. */
        public void blackhole() {
            setMode(Mode.BLACKHOLE);
        }

        /** Forwards this link's requests and discards its replies. */
        public void dropReplies() {
            setMode(Mode.DROP_REPLIES);
        }

        /** Forwards this link again; held bytes are delivered in order. */
        public void resume() {
            setMode(Mode.FORWARD);
        }

        /**
         * This link's current mode.
         *
         * @return the mode
         */
        public Mode mode() {
            return mode;
        }

        /**
         * Whether neither side has closed the link yet.
         *
         * @return {@code true} while open
         */
        public boolean isOpen() {
            return open;
        }

        /**
         * The client's local port: tells apart the connections of one client.
         *
         * @return the port of the client's end
         */
        public int clientPort() {
            return client.getPort();
        }

        /**
         * Bytes written to the server so far.
         *
         * @return the count
         */
        public long bytesToServer() {
            return bytesToServer.get();
        }

        /**
         * Bytes written to the client so far.
         *
         * @return the count
         */
        public long bytesToClient() {
            return bytesToClient.get();
        }

        /** Closes both sockets of this link. */
        public void close() {
            open = false;
            closeQuietly(client);
            closeQuietly(upstream);
            links.remove(this);
            synchronized (lock) {
                lock.notifyAll();
            }
        }

        @Override
        public String toString() {
            return linkName + "[client port " + clientPort() + ", " + mode + "]";
        }

        private void start() {
            try {
                startDirection(client.getInputStream(), upstream.getOutputStream(), true, bytesToServer, "up");
                startDirection(upstream.getInputStream(), client.getOutputStream(), false, bytesToClient, "down");
            } catch (IOException e) {
                close();
            }
        }

        private void startDirection(InputStream in, OutputStream out, boolean toServer, AtomicLong counter,
                String direction) {
            BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> read(in, queue, toServer), linkName + "-" + direction + "-read");
            Thread writer = new Thread(() -> write(queue, out, toServer, counter), linkName + "-" + direction + "-write");
            reader.setDaemon(true);
            writer.setDaemon(true);
            reader.start();
            writer.start();
        }

        private void read(InputStream in, BlockingQueue<Chunk> queue, boolean fromClient) {
            byte[] buffer = new byte[BUFFER_SIZE];
            try {
                while (open) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    byte[] marker = pauseMarker;
                    if (fromClient && marker != null && contains(buffer, n, marker)) {
                        setMode(Mode.PAUSE);
                    }
                    queue.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime()));
                }
            } catch (IOException e) {
                // Reset or closed: the link ends below.
            }
            queue.add(Chunk.END);
        }

        private void write(BlockingQueue<Chunk> queue, OutputStream out, boolean toServer, AtomicLong counter) {
            try {
                while (open) {
                    Chunk chunk = queue.take();
                    if (chunk == Chunk.END) {
                        break;
                    }
                    if (!awaitDeliverable(chunk, toServer)) {
                        break;
                    }
                    Mode now = mode;
                    boolean discard = now == Mode.BLACKHOLE || (now == Mode.DROP_REPLIES && !toServer);
                    if (!discard) {
                        out.write(chunk.bytes);
                        out.flush();
                        counter.addAndGet(chunk.bytes.length);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (SocketException e) {
                // The other side closed: the link ends below.
            } catch (IOException e) {
                // Write failed: the link ends below.
            }
            close();
        }

        /**
         * Waits while paused and until the chunk's delay (of its direction) has passed; false if the link
         * closed meanwhile. Long waits wait on the lock, so a mode or delay change ends them at once; the
         * last few milliseconds park and then spin outside it, and the mode and delay are read again after.
         */
        private boolean awaitDeliverable(Chunk chunk, boolean toServer) throws InterruptedException {
            while (true) {
                long wait;
                synchronized (lock) {
                    if (!open) {
                        return false;
                    }
                    if (mode == Mode.PAUSE) {
                        lock.wait(100);
                        continue;
                    }
                    wait = chunk.readAtNanos + (toServer ? toServerDelayNanos : toClientDelayNanos) - System.nanoTime();
                    if (wait <= 0) {
                        return true;
                    }
                    if (wait > LOCK_WAIT_ABOVE_NANOS) {
                        lock.wait((wait - LOCK_WAIT_ABOVE_NANOS) / 1_000_000 + 1);
                        continue;
                    }
                }
                long due = System.nanoTime() + wait;
                if (wait > SPIN_NANOS) {
                    LockSupport.parkNanos(wait - SPIN_NANOS);
                }
                while (due - System.nanoTime() > 0) {
                    Thread.onSpinWait();
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        }
    }

    private static boolean contains(byte[] buffer, int length, byte[] marker) {
        outer:
        for (int i = 0; i + marker.length <= length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (buffer[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private record Chunk(byte[] bytes, long readAtNanos) {
        static final Chunk END = new Chunk(new byte[0], 0);
    }
}
