package io.jobmon.logs.intake;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Stores the pod identities the intake sees (idempotent: a row per pod, UID and container id). */
@ApplicationScoped
public class PodIdentities {

    private static final String STORE = "INSERT INTO pod_identity (namespace, pod, uid, container_id, node)"
            + " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])"
            + " ON CONFLICT (pod, namespace, uid, container_id) DO NOTHING";

    private final Pool pool;

    public PodIdentities(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> store(List<PodIdentity> ids) {
        List<PodIdentity> distinct = ids.stream().distinct().toList();
        Tuple args = Tuple.tuple().addValue(distinct.stream().map(PodIdentity::namespace).toArray(String[]::new))
                .addValue(distinct.stream().map(PodIdentity::pod).toArray(String[]::new))
                .addValue(distinct.stream().map(PodIdentity::uid).toArray(String[]::new))
                .addValue(distinct.stream().map(PodIdentity::containerId).toArray(String[]::new))
                .addValue(distinct.stream().map(PodIdentity::node).toArray(String[]::new));
        return pool.preparedQuery(STORE).execute(args).replaceWithVoid();
    }
}
