package io.jobmon.jobs.job.repository;

import io.jobmon.jobs.support.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@code jobs.known_user}: the users of each tenant jobmon has seen (callers, job owners). */
@ApplicationScoped
public class UserRepository {

    /** A user as jobmon knows them: their project groups when last seen calling, and when that was. */
    public record KnownUser(String name, List<String> groups, Instant lastSeenAt) {
    }

    /** Records that a user was seen now; {@code groups} null keeps the ones known. */
    public Uni<Void> seen(SqlClient db, String tenant, String name, Set<String> groups) {
        return db.preparedQuery("INSERT INTO known_user (tenant, name, groups) VALUES ($1, $2, coalesce($3, '{}')) "
                + "ON CONFLICT (tenant, name) DO UPDATE SET last_seen_at = now(), "
                + "groups = coalesce($3, known_user.groups)")
                .execute(Tuple.of(tenant, name, groups == null ? null : groups.toArray(String[]::new)))
                .replaceWithVoid();
    }

    /** Those of {@code names} that jobmon does not know in the tenant. */
    public Uni<Set<String>> unknown(SqlClient db, String tenant, List<String> names) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return db.preparedQuery("SELECT name FROM known_user WHERE tenant = $1 AND name = ANY($2::text[])")
                .execute(Tuple.of(tenant, names.toArray(String[]::new)))
                .map(rows -> {
                    Set<String> out = new HashSet<>(names);
                    rows.forEach(r -> out.remove(r.getString("name")));
                    return out;
                });
    }

    /** Users of the tenant whose name starts with {@code prefix} (any case), by name, after {@code afterName}. */
    public Uni<List<KnownUser>> search(SqlClient db, String tenant, String prefix, String afterName, int limit) {
        String like = prefix == null ? null : JobListRepository.escapeLike(prefix.toLowerCase()) + "%";
        return db.preparedQuery("SELECT name, groups, last_seen_at FROM known_user WHERE tenant = $1 "
                + "AND ($2::text IS NULL OR lower(name) LIKE $2) AND ($3::text IS NULL OR name > $3) "
                + "ORDER BY name LIMIT $4")
                .execute(Tuple.of(tenant, like, afterName, limit))
                .map(rows -> JobRepository.list(rows, UserRepository::map));
    }

    private static KnownUser map(Row r) {
        return new KnownUser(r.getString("name"), JobRows.strings(r.getArrayOfStrings("groups")),
                Times.instant(r.getOffsetDateTime("last_seen_at")));
    }
}
