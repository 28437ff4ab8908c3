package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.UserRepository;
import io.jobmon.jobs.outbox.OutboxWriter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.BiFunction;

/** The owner's (or an admin's) settings of a job: tags, shares, visibility. Each change is published. */
@ApplicationScoped
public class SettingsService {

    static final int MAX_SHARES = 100;

    private final Pool pool;
    private final JobRepository jobs;
    private final OutboxWriter outbox;
    private final TagRules tagRules;
    private final UserRepository users;

    public SettingsService(Pool pool, JobRepository jobs, OutboxWriter outbox, TagRules tagRules,
            UserRepository users) {
        this.pool = pool;
        this.jobs = jobs;
        this.outbox = outbox;
        this.tagRules = tagRules;
        this.users = users;
    }

    public Uni<JobRecord> tags(Caller caller, String id, List<String> tags) {
        List<FieldError> errors = new ArrayList<>();
        if (tags == null) {
            errors.add(FieldError.of("tags", "settings.tags-required"));
        }
        tagRules.check(tags, "tags", errors);
        failOn(errors);
        List<String> clean = TagRules.normalise(tags);
        return change(caller, id, (tx, job) -> jobs.setTags(tx, job.id(), clean));
    }

    /**
     * Replaces the share list; the owner is left out (they see the job anyway). Every user must be one jobmon knows
     * in the caller's tenant ({@code GET /users}): a name nobody signed in with is a 422 naming it, never a share
     * with a typo.
     */
    public Uni<JobRecord> shares(Caller caller, String id, List<String> users) {
        List<FieldError> errors = new ArrayList<>();
        if (users == null) {
            errors.add(FieldError.of("users", "settings.users-required"));
        } else {
            if (users.size() > MAX_SHARES) {
                errors.add(FieldError.of("users", "field.max-items", MAX_SHARES));
            }
            for (int i = 0; i < users.size(); i++) {
                String u = users.get(i);
                if (u == null || !ListQueryParser.IDENTIFIER.matcher(u).matches()) {
                    errors.add(FieldError.of("users[" + i + "]", "settings.user-name"));
                }
            }
        }
        failOn(errors);
        List<String> wanted = new ArrayList<>(new LinkedHashSet<>(users));
        return change(caller, id, (tx, job) -> this.users.unknown(tx, job.tenant(), wanted).chain(unknown -> {
            if (!unknown.isEmpty()) {
                List<FieldError> refused = new ArrayList<>();
                for (int i = 0; i < users.size(); i++) {
                    if (unknown.contains(users.get(i))) {
                        refused.add(FieldError.of("users[" + i + "]", "settings.unknown-user", users.get(i)));
                    }
                }
                throw ApiException.unprocessable(Text.of("settings.unknown-users",
                        String.join(", ", wanted.stream().filter(unknown::contains).toList())), refused);
            }
            return jobs.setShares(tx, job.id(), wanted.stream().filter(u -> !u.equals(job.owner())).toList());
        }));
    }

    public Uni<JobRecord> visibility(Caller caller, String id, Visibility visibility) {
        if (visibility == null) {
            throw ApiException.invalid("visibility", "field.one-of", "PRIVATE, PROJECT");
        }
        return change(caller, id, (tx, job) -> jobs.setVisibility(tx, job.id(), visibility.name()));
    }

    private Uni<JobRecord> change(Caller caller, String id, BiFunction<SqlClient, JobRecord, Uni<Void>> write) {
        return pool.withTransaction(tx -> jobs.lock(tx, id).chain(found -> {
            JobRecord job = Access.require(caller, id, found, Permission.ACT);
            return write.apply(tx, job).chain(x -> outbox.changed(tx, id));
        })).chain(x -> jobs.get(pool, id));
    }

    private static void failOn(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
    }
}
