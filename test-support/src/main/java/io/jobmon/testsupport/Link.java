package io.jobmon.testsupport;

/** A dependency's link that a test can cut and restore (see {@link TcpProxy}), usable from any class loader. */
public final class Link {

    private final Object[] handle;

    Link(Object[] handle) {
        this.handle = handle;
    }

    public int port() {
        return (Integer) handle[0];
    }

    /** The dependency goes away: open connections are reset, new ones refused. */
    public void cut() {
        ((Runnable) handle[1]).run();
    }

    /** The dependency is back. */
    public void restore() {
        ((Runnable) handle[2]).run();
    }
}
