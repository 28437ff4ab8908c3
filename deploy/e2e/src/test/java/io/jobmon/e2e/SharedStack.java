package io.jobmon.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@code ./jobmon up} shared by every test class that asks for the same settings: a stack takes minutes to start,
 * and the classes that only read through it need not pay for one each. Only one stack fits the test's ports, so a
 * class asking for other settings stops the running one first; the classes run in {@code @Order} (see
 * junit-platform.properties) so that those sharing settings are neighbours. The last stack is stopped, and checked to
 * leave nothing listening, when the whole run ends.
 */
final class SharedStack {

    /** The stack the sim tests need: the guard checks opted-in jobs every 15 s once they ran 20 s. */
    static final Map<String, String> SIM = Map.of("JOBMON_AUTO_FAULT_INTERVAL", "15s", "JOBMON_AUTO_FAULT_WARM_UP", "20s");

    private static LocalStack current;
    private static Map<String, String> currentSettings;

    private SharedStack() {
    }

    /**
     * A class's use of the shared stack: {@code @RegisterExtension static final SharedStack.Use STACK =
     * SharedStack.use(SharedStack.SIM);}, then {@code STACK.get()} from its {@code @BeforeAll} on.
     */
    static Use use(Map<String, String> settings) {
        return new Use(settings);
    }

    static final class Use implements BeforeAllCallback {
        private final Map<String, String> settings;
        private LocalStack stack;

        private Use(Map<String, String> settings) {
            this.settings = settings;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            stack = SharedStack.get(context, settings);
        }

        LocalStack get() {
            return stack;
        }
    }

    /** The running stack with these {@code ./jobmon} settings, started (after stopping another) when there is none. */
    static synchronized LocalStack get(ExtensionContext context, Map<String, String> settings) {
        Map<String, String> wanted = new TreeMap<>(settings);
        if (current != null && wanted.equals(currentSettings)) {
            return current;
        }
        stop();
        LocalStack stack = LocalStack.fromSystemProperties();
        for (Map.Entry<String, String> e : wanted.entrySet()) {
            stack = stack.withEnv(e.getKey(), e.getValue());
        }
        // An interrupted earlier run may have left its stack up: stop it by its PID files.
        stack.requireFreePorts();
        long start = System.nanoTime();
        assertEquals(0, stack.jobmon(Duration.ofMinutes(12), "up"), "./jobmon up failed: see its output above");
        System.out.printf("[e2e] stack %s ready in %d s%n", wanted, Duration.ofNanos(System.nanoTime() - start).toSeconds());
        current = stack;
        currentSettings = wanted;
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(SharedStack.class, k -> (AutoCloseable) SharedStack::stop);
        return stack;
    }

    /** Stops the running stack: {@code ./jobmon down} succeeds and leaves no port listening. */
    static synchronized void stop() {
        if (current == null) {
            return;
        }
        LocalStack stack = current;
        current = null;
        currentSettings = null;
        stack.downAndCheck();
    }
}
