package io.jobmon.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * Gives a {@code @QuarkusTest} (in a test profile of its own) links it can cut: the service reaches PostgreSQL
 * through {@link #database()} and the Kafka broker through {@link #broker()} — over SASL/PLAIN, so the same run
 * proves that every Kafka client of the service takes the shared security settings. Cutting a link takes the
 * dependency away from this service only (the real servers keep running for the rest of the JVM).
 */
public class OutageTestResource implements QuarkusTestResourceLifecycleManager {

    private static final String DATABASE_LINK = "jobmon.test.pg.link";

    /** The service's link to PostgreSQL. */
    public static Link database() {
        String port = System.getProperty(DATABASE_LINK);
        if (port == null) {
            throw new IllegalStateException("OutageTestResource is not started");
        }
        return new Link(Integer.parseInt(port));
    }

    /** The service's link to the Kafka broker. */
    public static Link broker() {
        return EmbeddedKafka.saslLink();
    }

    @Override
    public Map<String, String> start() {
        EmbeddedPostgresDb.Connection c = EmbeddedPostgresDb.connection();
        URI target = URI.create(c.url());
        Link database = SharedLinks.link(DATABASE_LINK, () -> new TcpProxy(target.getHost(), target.getPort()));
        database.restore();
        EmbeddedKafka.saslLink().restore();
        String url = "postgresql://127.0.0.1:" + database.port() + target.getPath();
        Map<String, String> config = new HashMap<>(EmbeddedKafka.saslConfig());
        config.put("quarkus.datasource.jdbc.url", "jdbc:" + url);
        config.put("quarkus.datasource.reactive.url", url);
        config.put("quarkus.datasource.username", c.user());
        config.put("quarkus.datasource.password", c.password());
        return config;
    }

    @Override
    public void stop() {
        database().restore();
        EmbeddedKafka.saslLink().restore();
    }
}
