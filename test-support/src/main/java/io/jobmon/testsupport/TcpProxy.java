package io.jobmon.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP link between a service and one of its dependencies (PostgreSQL, the Kafka broker) that a test can cut:
 * {@link #cut()} closes every open connection and stops listening, so the service sees exactly what it sees when
 * the dependency goes down (connections reset, new ones refused); {@link #restore()} listens again on the same
 * port. The dependency itself keeps running for the other tests of the JVM.
 */
public final class TcpProxy implements AutoCloseable {

    static final String CUT = "cut";
    static final String OPEN = "open";

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;

    public TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try {
            this.port = EmbeddedKafka.freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        restore();
        // Tests in other class loaders steer this proxy through system properties (see Link).
        System.setProperty(wantKey(port), OPEN);
        Thread control = new Thread(this::follow, "tcp-proxy-control-" + port);
        control.setDaemon(true);
        control.start();
    }

    static String wantKey(int port) {
        return "jobmon.test.link." + port + ".want";
    }

    static String stateKey(int port) {
        return "jobmon.test.link." + port + ".state";
    }

    private void follow() {
        while (true) {
            String want = System.getProperty(wantKey(port), OPEN);
            if (CUT.equals(want)) {
                cut();
            } else {
                restore();
            }
            System.setProperty(stateKey(port), want);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    public int port() {
        return port;
    }

    public boolean isCut() {
        return server == null;
    }

    /** The dependency goes away: open connections are reset, new ones refused. */
    public synchronized void cut() {
        ServerSocket s = server;
        server = null;
        if (s != null) {
            closeQuietly(s);
        }
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    /** The dependency is back. */
    public synchronized void restore() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            server = s;
            Thread t = new Thread(() -> accept(s), "tcp-proxy-" + port);
            t.setDaemon(true);
            t.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + port, e);
        }
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket client = s.accept();
                Socket upstream;
                try {
                    upstream = new Socket(targetHost, targetPort);
                } catch (IOException e) {
                    closeQuietly(client);
                    continue;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed by cut()
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-pump-" + port);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        cut();
    }
}
