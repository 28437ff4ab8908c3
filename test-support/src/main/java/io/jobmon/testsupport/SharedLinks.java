package io.jobmon.testsupport;

import java.util.function.Supplier;

/**
 * What the test servers of this JVM share across Quarkus' class loaders. Each {@code @QuarkusTest} profile runs in
 * a class loader of its own, where the statics of this module start afresh; the servers must not (one broker, one
 * PostgreSQL per JVM: faster, and a broker's SASL provider is registered JVM-wide by the first class loader, so a
 * second broker could not authenticate anyone). They are found through system properties, strings only (libraries
 * copy the system properties and expect strings): a server's address, and a link's port by name.
 */
final class SharedLinks {

    private SharedLinks() {
    }

    /** The JVM-wide string under {@code key}, made once by {@code create}. */
    static String once(String key, Supplier<String> create) {
        synchronized (System.getProperties()) {
            String v = System.getProperty(key);
            if (v == null) {
                v = create.get();
                System.setProperty(key, v);
            }
            return v;
        }
    }

    /** The link named {@code key}, its proxy made once (in whichever class loader asks first) by {@code create}. */
    static Link link(String key, Supplier<TcpProxy> create) {
        return new Link(Integer.parseInt(once(key, () -> Integer.toString(create.get().port()))));
    }
}
