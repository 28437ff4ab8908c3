package io.jobmon.testsupport;

import java.util.function.Supplier;

/**
 * What the test servers of this JVM share across Quarkus' class loaders. Each {@code @QuarkusTest} profile runs in
 * a class loader of its own, where the statics of this module start afresh; the servers must not (one broker, one
 * PostgreSQL per JVM: faster, and a broker's SASL provider is registered JVM-wide by the first class loader, so a
 * second broker could not authenticate anyone). Values live in the system properties as JDK types only.
 */
final class SharedLinks {

    private SharedLinks() {
    }

    /** The JVM-wide value under {@code key}, made once by {@code create}. */
    @SuppressWarnings("unchecked")
    static synchronized <T> T once(String key, Supplier<T> create) {
        synchronized (System.getProperties()) {
            Object v = System.getProperties().get(key);
            if (v == null) {
                v = create.get();
                System.getProperties().put(key, v);
            }
            return (T) v;
        }
    }

    /** A cuttable link as JDK types: {@code {Integer port, Runnable cut, Runnable restore}}. */
    static Object[] handle(TcpProxy proxy) {
        return new Object[] {proxy.port(), (Runnable) proxy::cut, (Runnable) proxy::restore};
    }
}
