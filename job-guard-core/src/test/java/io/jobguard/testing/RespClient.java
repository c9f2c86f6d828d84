package io.jobguard.testing;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 client over a plain socket, for the harness's own admin commands.
 *
 * <p>It deliberately shares nothing with Lettuce, so that the harness keeps working (and keeps telling
 * the truth) while the client under test is misbehaving. Replies are decoded as: simple and bulk strings
 * to {@link String} (UTF-8), integers to {@link Long}, arrays to {@code List<Object>}, nil to {@code null};
 * error replies throw {@link ErrorReply}. Every read and the connect are bounded by the given timeout.
 * Not thread-safe.
 */
public final class RespClient implements AutoCloseable {

    /** Used when the caller does not care: long enough for FLUSHALL on a test data set. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * Opens a connection.
     *
     * @param host    the server host
     * @param port    the server port
     * @param timeout bound for the connect and for each later read
     * @return the connected client
     * @throws IOException if the server cannot be reached
     */
    public static RespClient connect(String host, int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            int millis = Math.toIntExact(timeout.toMillis());
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            return new RespClient(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Runs one command on a fresh connection, so that callers need not care about restarts in between.
     *
     * @param host the server host
     * @param port the server port
     * @param args the command and its arguments
     * @return the decoded reply
     * @throws IOException on connection problems or an error reply
     */
    public static Object once(String host, int port, String... args) throws IOException {
        try (RespClient client = connect(host, port, DEFAULT_TIMEOUT)) {
            return client.call(args);
        }
    }

    /**
     * Sends a command and waits for its reply.
     *
     * @param args the command and its arguments
     * @return the decoded reply
     * @throws IOException on connection problems, a timeout, or an error reply ({@link ErrorReply})
     */
    public Object call(String... args) throws IOException {
        write(args);
        return read();
    }

    /**
     * Sends a command that the server answers by closing the connection (SHUTDOWN), tolerating
     * either a reply or the connection going away.
     *
     * @param args the command and its arguments
     * @throws IOException if the command could not be sent or the server answered with an error
     */
    public void callExpectingDisconnect(String... args) throws IOException {
        write(args);
        try {
            read();
        } catch (ErrorReply e) {
            throw e;
        } catch (IOException expected) {
            // A successful SHUTDOWN has no reply: the server just closes the socket.
        }
    }

    private void write(String... args) throws IOException {
        StringBuilder command = new StringBuilder();
        command.append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            command.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        out.write(command.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("Connection closed by the server");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new ErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$':
                return readBulk(Integer.parseInt(line));
            case '*':
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            default:
                throw new IOException("Unexpected RESP type byte '" + (char) type + "' followed by: " + line);
        }
    }

    private String readBulk(int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] data = in.readNBytes(length);
        if (data.length < length || in.read() != '\r' || in.read() != '\n') {
            throw new EOFException("Truncated bulk reply");
        }
        return new String(data, StandardCharsets.UTF_8);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new EOFException("Connection closed in the middle of a reply");
            }
            line.write(b);
        }
        if (in.read() != '\n') {
            throw new IOException("Malformed RESP line terminator");
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** An error reply ({@code -ERR ...}) from the server; the message is the server's text. */
    public static final class ErrorReply extends IOException {

        private static final long serialVersionUID = 1L;

        ErrorReply(String message) {
            super(message);
        }
    }
}
