package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.JobRepository;
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

    public SettingsService(Pool pool, JobRepository jobs, OutboxWriter outbox, TagRules tagRules) {
        this.pool = pool;
        this.jobs = jobs;
        this.outbox = outbox;
        this.tagRules = tagRules;
    }

    public Uni<JobRecord> tags(Caller caller, String id, List<String> tags) {
        List<FieldError> errors = new ArrayList<>();
        if (tags == null) {
            errors.add(new FieldError("tags", "required (an empty list removes every tag)"));
        }
        tagRules.check(tags, "tags", errors);
        failOn(errors);
        List<String> clean = TagRules.normalise(tags);
        return change(caller, id, (tx, job) -> jobs.setTags(tx, job.id(), clean));
    }

    /** Replaces the share list; the owner is left out (they see the job anyway). */
    public Uni<JobRecord> shares(Caller caller, String id, List<String> users) {
        List<FieldError> errors = new ArrayList<>();
        if (users == null) {
            errors.add(new FieldError("users", "required (an empty list shares with nobody)"));
        } else {
            if (users.size() > MAX_SHARES) {
                errors.add(new FieldError("users", "at most " + MAX_SHARES + " users"));
            }
            for (int i = 0; i < users.size(); i++) {
                String u = users.get(i);
                if (u == null || !ListQueryParser.IDENTIFIER.matcher(u).matches()) {
                    errors.add(new FieldError("users[" + i + "]", "a user name: letters, digits and . _ @ -"));
                }
            }
        }
        failOn(errors);
        return change(caller, id, (tx, job) -> jobs.setShares(tx, job.id(),
                new ArrayList<>(new LinkedHashSet<>(users)).stream().filter(u -> !u.equals(job.owner())).toList()));
    }

    public Uni<JobRecord> visibility(Caller caller, String id, Visibility visibility) {
        if (visibility == null) {
            throw ApiException.badRequest("visibility", "required: PRIVATE or PROJECT");
        }
        return change(caller, id, (tx, job) -> jobs.setVisibility(tx, job.id(), visibility.name()));
    }

    private Uni<JobRecord> change(Caller caller, String id, BiFunction<SqlClient, JobRecord, Uni<Void>> write) {
        return pool.withTransaction(tx -> jobs.lock(tx, id).chain(found -> {
            JobRecord job = Access.require(caller, found, Permission.ACT);
            return write.apply(tx, job).chain(x -> outbox.changed(tx, id));
        })).chain(x -> jobs.get(pool, id));
    }

    private static void failOn(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("invalid request", errors);
        }
    }
}
