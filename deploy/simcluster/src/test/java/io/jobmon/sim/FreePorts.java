package io.jobmon.sim;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** A run of free local ports, for the exporters of a test's cluster. */
public final class FreePorts {

    private FreePorts() {
    }

    public static int base(int count) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 30_000 + ThreadLocalRandom.current().nextInt(25_000);
            if (free(base, count)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free ports in a row");
    }

    private static boolean free(int base, int count) {
        for (int p = base; p < base + count; p++) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getByName("127.0.0.1"))) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
