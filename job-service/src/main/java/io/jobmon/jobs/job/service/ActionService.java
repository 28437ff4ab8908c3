package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.outbox.OutboxWriter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The owner's (or an admin's) actions on one job: stop, delete, resubmit. */
@ApplicationScoped
public class ActionService {

    /** Resubmit modes (api.md). */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "ResubmitMode")
    public enum Mode {
        NORMAL, DEBUG
    }

    private final Pool pool;
    private final JobRepository jobs;
    private final Stopper stopper;
    private final OutboxWriter outbox;
    private final JobCreator creator;
    private final SpecRules rules;
    private final JobsConfig config;

    public ActionService(Pool pool, JobRepository jobs, Stopper stopper, OutboxWriter outbox, JobCreator creator,
            SpecRules rules, JobsConfig config) {
        this.pool = pool;
        this.jobs = jobs;
        this.stopper = stopper;
        this.outbox = outbox;
        this.creator = creator;
        this.rules = rules;
        this.config = config;
    }

    /** Stops a waiting, running or abnormal job; 409 for a job that already ended. Returns the job as stored. */
    public Uni<JobRecord> stop(Caller caller, String id) {
        return pool.withTransaction(tx -> jobs.lock(tx, id).chain(found -> {
            JobRecord job = Access.require(caller, id, found, Permission.ACT);
            if (!StatusMachine.canStop(job.status())) {
                throw ApiException.conflict(Text.of("job.conflict.ended", id, Text.of("status." + job.status())));
            }
            return stopper.record(tx, job, "StoppedByUser", Text.of("job.message.stopped-by", caller.user()),
                    TransitionRecord.USER)
                    .replaceWith(job);
        })).chain(job -> job.status() == JobStatus.STOPPING ? Uni.createFrom().voidItem()
                : stopper.deleteWorkload(job))
                .chain(x -> jobs.get(pool, id));
    }

    /** Deletes a job in a final state (409 otherwise): its record, timeline and pods; a deleted snapshot goes out. */
    public Uni<Void> delete(Caller caller, String id) {
        return pool.withTransaction(tx -> jobs.lock(tx, id).chain(found -> {
            JobRecord job = Access.require(caller, id, found, Permission.ACT);
            if (!StatusMachine.canDelete(job.status())) {
                throw ApiException.conflict(Text.of("job.conflict.delete", id, Text.of("status." + job.status())));
            }
            return outbox.deleted(tx, job).chain(x -> jobs.delete(tx, id));
        }));
    }

    /** One result of a batch delete: {@code detail} is a catalogue key, rendered for the reader. */
    public record DeleteResult(String id, int status, Text detail) {
    }

    /** Deletes each id on its own; one failure does not stop the others. */
    public Uni<List<DeleteResult>> batchDelete(Caller caller, List<String> ids) {
        return io.smallrye.mutiny.Multi.createFrom().iterable(ids)
                .onItem().transformToUniAndConcatenate(id -> delete(caller, id)
                        .map(x -> new DeleteResult(id, 204, Text.of("batch.deleted")))
                        .onFailure(ApiException.class).recoverWithItem(e -> {
                            ApiException a = (ApiException) e;
                            return new DeleteResult(id, a.status(), a.detailText() != null ? a.detailText()
                                    : Text.of("problem.status", a.status()));
                        }))
                .collect().asList();
    }

    /**
     * Resubmits a job that ended: NORMAL with the same spec, DEBUG with the same resources and a debug command (so
     * the user can get into the container), no automatic restarts. The new job joins the chain, linked to the old.
     */
    public Uni<JobRecord> resubmit(Caller caller, String id, Mode mode, List<String> debugCommand) {
        return jobs.find(pool, id).chain(found -> {
            JobRecord source = Access.require(caller, id, found, Permission.ACT);
            if (!StatusMachine.canResubmit(source.status())) {
                throw ApiException.conflict(Text.of("job.conflict.resubmit", id, Text.of("status." + source.status())));
            }
            JobSpec spec = mode == Mode.DEBUG ? debugSpec(source.spec(), debugCommand) : source.spec();
            SpecValidator.validate(SpecDefaults.apply(spec, rules), caller.isAdmin() ? caller : ownerOf(caller, source),
                    rules);
            return jobs.lastAttempt(pool, source.rootId()).chain(last -> creator.create(new NewJob(
                    SpecDefaults.apply(spec, rules), source.tenant(), source.owner(),
                    mode == Mode.DEBUG ? AttemptCause.USER_DEBUG : AttemptCause.USER, source.rootId(), last + 1,
                    source.id(), null, null, source.retryCount(), null, source.shares()), TransitionRecord.USER));
        });
    }

    private JobSpec debugSpec(JobSpec s, List<String> debugCommand) {
        if (debugCommand != null && (debugCommand.isEmpty() || debugCommand.stream().anyMatch(c -> c == null))) {
            throw ApiException.invalid("debugCommand", "action.debug-command");
        }
        List<String> command = debugCommand != null ? debugCommand : config.debugCommand();
        return new JobSpec(s.name(), s.project(), s.cluster(), s.region(), s.queue(), s.priority(), s.image(), command,
                List.of(), s.env(), s.workingDir(), s.replicas(), s.resources(), s.volumes(), s.tags(), s.visibility(),
                false, false, 0, s.labels());
    }

    /** The owner's standing: the caller acts for the owner, so the owner's project membership is what counts. */
    private static Caller ownerOf(Caller caller, JobRecord job) {
        java.util.Set<String> groups = new java.util.HashSet<>(caller.groups());
        groups.add(job.project());
        return new Caller(caller.user(), caller.tenant(), groups, caller.roles());
    }
}
