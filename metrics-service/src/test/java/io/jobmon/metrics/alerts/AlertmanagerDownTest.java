package io.jobmon.metrics.alerts;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.problem.DependencyFailures;
import io.vertx.mutiny.core.Vertx;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Alertmanager away or not configured is a dependency failure (503 with Retry-After), never a bug (500). */
class AlertmanagerDownTest {

    static AlertsConfig config(Optional<String> url) {
        return new AlertsConfig() {
            public Optional<String> alertmanagerUrl() {
                return url;
            }

            public Duration timeout() {
                return Duration.ofSeconds(2);
            }

            public int retentionDays() {
                return 30;
            }

            public String webhookRole() {
                return "metrics-writer";
            }

            public Duration maxSilence() {
                return Duration.ofDays(30);
            }
        };
    }

    @Test
    void aClosedPortAndAMissingUrlAreDependencyFailures() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Vertx vertx = Vertx.vertx();
        try {
            for (Optional<String> url : List.of(Optional.of("http://127.0.0.1:" + port), Optional.<String>empty())) {
                AlertmanagerClient client = new AlertmanagerClient(vertx, config(url));
                Throwable e = assertThrows(Throwable.class,
                        () -> client.alerts(List.of()).await().atMost(Duration.ofSeconds(10)));
                assertTrue(DependencyFailures.isUnavailable(e), e.toString());
                Throwable s = assertThrows(Throwable.class,
                        () -> client.silences("tenant=\"t1\"").await().atMost(Duration.ofSeconds(10)));
                assertTrue(DependencyFailures.isUnavailable(s), s.toString());
            }
        } finally {
            vertx.closeAndAwait();
        }
    }
}
