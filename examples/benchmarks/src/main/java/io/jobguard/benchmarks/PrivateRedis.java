package io.jobguard.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of the benchmark's own, on a free loopback port, without persistence, so
 * that no other client's load shows in its {@code INFO cpu}. Stopped (and its directory removed)
 * on {@link #close()}.
 *
 * @param process the server process
 * @param port    its loopback port
 * @param dir     its working directory (log file), removed on close
 */
record PrivateRedis(Process process, int port, Path dir) implements AutoCloseable {

    static PrivateRedis start() throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Path dir = Files.createTempDirectory("jobguard-bench-redis");
        Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        PrivateRedis redis = new PrivateRedis(process, port, dir);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!redis.answersPing()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                redis.close();
                throw new IllegalStateException("redis-server did not start on port " + port + " (is it on the PATH?)");
            }
            Thread.onSpinWait();
        }
        return redis;
    }

    private boolean answersPing() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            return in.readNBytes(reply, 0, 7) == 7 && new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }
}
