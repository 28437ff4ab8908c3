package io.jobmon.testsupport;

import java.util.concurrent.TimeUnit;

/**
 * A dependency's link that a test can cut and restore, usable from any class loader: it asks the {@link TcpProxy}
 * listening on {@link #port()} through a system property and waits until the proxy has done it.
 */
public final class Link {

    private final int port;

    Link(int port) {
        this.port = port;
    }

    public int port() {
        return port;
    }

    /** The dependency goes away: open connections are reset, new ones refused. */
    public void cut() {
        set(TcpProxy.CUT);
    }

    /** The dependency is back. */
    public void restore() {
        set(TcpProxy.OPEN);
    }

    private void set(String state) {
        System.setProperty(TcpProxy.wantKey(port), state);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!state.equals(System.getProperty(TcpProxy.stateKey(port)))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the link on port " + port + " did not become " + state);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
