package io.jobmon.contracts.health;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of a service's two dependencies, answered within a second whatever is down: PostgreSQL
 * ({@code SELECT 1}) and the Kafka broker (a cluster description), asked in parallel, each bounded by
 * {@code jobmon.readiness.timeout}. DOWN names the dependency and why; it comes back UP by itself.
 * (Quarkus' own Kafka check waited on the broker without a bound: readiness hung for a whole outage.)
 */
@Readiness
@ApplicationScoped
public class DependencyReadiness implements AsyncHealthCheck {

    private final Instance<Pool> pool;
    private final Instance<Map<String, Object>> kafkaConfig;
    private final Duration timeout;
    private volatile AdminClient admin;

    /** @param timeout {@code jobmon.readiness.timeout}: how long each dependency may take to answer */
    public DependencyReadiness(Instance<Pool> pool,
            @Identifier("default-kafka-broker") Instance<Map<String, Object>> kafkaConfig,
            @ConfigProperty(name = "jobmon.readiness.timeout", defaultValue = "800ms") Duration timeout) {
        this.pool = pool;
        this.kafkaConfig = kafkaConfig;
        this.timeout = timeout;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        Uni<String> db = pool.isResolvable() ? database() : Uni.createFrom().nullItem();
        Uni<String> kafka = kafkaConfig.isResolvable() ? kafka() : Uni.createFrom().nullItem();
        return Uni.combine().all().unis(db, kafka).asTuple().map(t -> {
            var b = HealthCheckResponse.named("Dependencies");
            boolean up = true;
            if (pool.isResolvable()) {
                b.withData("postgresql", t.getItem1() == null ? "UP" : "DOWN: " + t.getItem1());
                up &= t.getItem1() == null;
            }
            if (kafkaConfig.isResolvable()) {
                b.withData("kafka", t.getItem2() == null ? "UP" : "DOWN: " + t.getItem2());
                up &= t.getItem2() == null;
            }
            return b.status(up).build();
        });
    }

    /** Null when PostgreSQL answers, else why not. */
    private Uni<String> database() {
        return pool.get().query("SELECT 1").execute().replaceWith((String) null)
                .ifNoItem().after(timeout).failWith(() -> new IllegalStateException("no answer in " + timeout.toMillis() + " ms"))
                .onFailure().recoverWithItem(DependencyReadiness::reason);
    }

    private Uni<String> kafka() {
        return Uni.createFrom().completionStage(() -> admin().describeCluster(
                new DescribeClusterOptions().timeoutMs((int) timeout.toMillis())).clusterId().toCompletionStage())
                .replaceWith((String) null)
                .ifNoItem().after(timeout.plusMillis(100)).failWith(() -> new IllegalStateException("no answer in "
                        + timeout.toMillis() + " ms"))
                .onFailure().recoverWithItem(DependencyReadiness::reason);
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return msg.length() > 200 ? msg.substring(0, 200) : msg;
    }

    private AdminClient admin() {
        AdminClient a = admin;
        if (a == null) {
            synchronized (this) {
                if (admin == null) {
                    Map<String, Object> c = new HashMap<>();
                    kafkaConfig.get().forEach((k, v) -> {
                        if (AdminClientConfig.configNames().contains(k) || k.startsWith("sasl.") || k.startsWith("ssl.")) {
                            c.put(k, v);
                        }
                    });
                    c.put(AdminClientConfig.CLIENT_ID_CONFIG, "jobmon-readiness");
                    c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis() * 2);
                    c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
                    c.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
                    admin = AdminClient.create(c);
                }
                a = admin;
            }
        }
        return a;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
