package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.kube.ClusterRegistry;
import io.jobmon.jobs.kube.NodeCapacity;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.regex.Pattern;

/** Submit and clone: jobs that start a new chain. */
@ApplicationScoped
public class SubmitService {

    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,128}");

    /** A created job, whether it was created by this call ({@code replayed} false) or by an earlier one. */
    public record Created(JobRecord job, boolean replayed, List<Text> warnings) {
    }

    private final Pool pool;
    private final JobRepository jobs;
    private final JobCreator creator;
    private final SpecRules rules;
    private final NodeCapacity nodes;
    private final ClusterRegistry clusters;

    public SubmitService(Pool pool, JobRepository jobs, JobCreator creator, SpecRules rules, NodeCapacity nodes,
            ClusterRegistry clusters) {
        this.nodes = nodes;
        this.clusters = clusters;
        this.pool = pool;
        this.jobs = jobs;
        this.creator = creator;
        this.rules = rules;
    }

    /** Submits a job; a retried submit with the same {@code Idempotency-Key} returns the job the first one made. */
    public Uni<Created> submit(Caller caller, JobSpec raw, String idempotencyKey) {
        Access.requireTenant(caller);
        if (raw == null) {
            throw ApiException.invalid("body", "action.body-required");
        }
        if (idempotencyKey != null && !IDEMPOTENCY_KEY.matcher(idempotencyKey).matches()) {
            throw ApiException.invalid("Idempotency-Key", "action.idempotency-key");
        }
        JobSpec spec = SpecDefaults.apply(raw, rules);
        Uni<java.util.Optional<JobRecord>> earlier = idempotencyKey == null
                ? Uni.createFrom().item(java.util.Optional.empty())
                : jobs.findByIdempotencyKey(pool, caller.tenant(), caller.user(), idempotencyKey);
        return earlier.chain(found -> {
            if (found.isPresent()) {
                return Uni.createFrom().item(replay(found.get(), spec, idempotencyKey));
            }
            SpecValidator.validate(spec, caller, rules);
            return capacity(spec).chain(warnings -> creator.create(NewJob.first(spec, caller.tenant(), caller.user(),
                    idempotencyKey, null), TransitionRecord.USER)
                    .map(job -> new Created(job, false, warnings)))
                    .onFailure(SubmitService::isIdempotencyRace)
                    .recoverWithUni(e -> jobs.findByIdempotencyKey(pool, caller.tenant(), caller.user(), idempotencyKey)
                            .map(job -> replay(job.orElseThrow(), spec, idempotencyKey)));
        });
    }

    /**
     * Clones a job the caller may clone into a new job of theirs, overrides applied. Volumes of a project the
     * caller may not mount are dropped (unless the overrides name the volumes), each with a warning.
     */
    public Uni<Created> cloneJob(Caller caller, String id, JobSpec overrides) {
        Access.requireTenant(caller);
        return jobs.find(pool, id).chain(found -> {
            JobRecord source = Access.require(caller, id, found, Permission.CLONE);
            JobSpec merged = SpecDefaults.merge(source.spec(), overrides);
            List<Text> warnings = new java.util.ArrayList<>();
            if (overrides == null || overrides.volumes() == null) {
                List<JobSpec.VolumeSpec> kept = new java.util.ArrayList<>();
                for (JobSpec.VolumeSpec v : merged.volumes()) {
                    if (SpecValidator.mayMount(v, caller, rules)) {
                        kept.add(v);
                    } else {
                        warnings.add(Text.of("clone.volume-dropped", v.name(), v.claimName(), v.project(),
                                v.mountPath()));
                    }
                }
                merged = SpecDefaults.merge(merged, new JobSpec(null, null, null, null, null, null, null, null, null,
                        null, null, null, null, kept, null, null, null, null, null, null));
            }
            JobSpec spec = SpecDefaults.apply(merged, rules);
            SpecValidator.validate(spec, caller, rules);
            JobSpec checked = spec;
            return capacity(spec).invoke(warnings::addAll).chain(x -> creator.create(NewJob.first(checked,
                    caller.tenant(), caller.user(), null, source.id()), TransitionRecord.USER)
                    .map(job -> new Created(job, false, List.copyOf(warnings))));
        });
    }

    /** Whether the GPUs asked for can ever be free (422 if not), with the cluster's nodes where they can be read. */
    private Uni<List<Text>> capacity(JobSpec spec) {
        return nodes.of(spec.cluster()).map(found -> Capacity.check(spec, rules, found,
                found.isPresent() ? clusters.cluster(spec.cluster()).gpuProducts() : java.util.Map.of()));
    }

    /**
     * A retried submit gets the job its key made; the same key with another spec is a client bug (a reused key
     * would silently drop the new job), answered 422 as the IETF Idempotency-Key draft asks.
     */
    private static Created replay(JobRecord earlier, JobSpec spec, String key) {
        if (earlier.spec() != null && !earlier.spec().equals(spec)) {
            throw ApiException.unprocessable(Text.of("job.unprocessable.idempotency", key, earlier.id()));
        }
        return new Created(earlier, true, List.of());
    }

    private static boolean isIdempotencyRace(Throwable e) {
        return e instanceof PgException pg && "23505".equals(pg.getSqlState())
                && String.valueOf(pg.getConstraint()).contains("idempotency");
    }
}
