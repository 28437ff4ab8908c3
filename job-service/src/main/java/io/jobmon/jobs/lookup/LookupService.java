package io.jobmon.jobs.lookup;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.api.Cursors;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.repository.LookupRepository;
import io.jobmon.jobs.job.repository.UserRepository;
import io.jobmon.jobs.job.service.Access;
import io.jobmon.jobs.job.model.ListQuery;
import io.jobmon.jobs.job.service.SpecRules;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** The lookups: clusters and their queues from configuration, projects, tags in use and known users from the jobs. */
@ApplicationScoped
public class LookupService {

    private final SpecRules rules;
    private final Pool pool;
    private final LookupRepository lookups;
    private final UserRepository users;

    public LookupService(SpecRules rules, Pool pool, LookupRepository lookups, UserRepository users) {
        this.rules = rules;
        this.pool = pool;
        this.lookups = lookups;
        this.users = users;
    }

    public List<LookupViews.Cluster> clusters(Caller caller) {
        List<LookupViews.Cluster> out = new ArrayList<>();
        rules.clusters().forEach((name, c) -> out.add(new LookupViews.Cluster(name, c.region(), c.type(),
                c.queues().stream().map(q -> new LookupViews.Queue(q.name(), q.gpuTypes(), maxPerReplica(q),
                        q.maxGpusPerJob(), q.gpus(), q.projects(), q.description(), q.openTo(caller))).toList())));
        return out;
    }

    /** The queues the caller may submit to, optionally of one cluster or region. */
    public List<LookupViews.SubmittableQueue> queues(Caller caller, String cluster, String region) {
        List<LookupViews.SubmittableQueue> out = new ArrayList<>();
        rules.clusters().forEach((name, c) -> {
            if ((cluster == null || cluster.equals(name)) && (region == null || region.equals(c.region()))) {
                c.queues().stream().filter(q -> q.openTo(caller)).forEach(q -> out.add(new LookupViews.SubmittableQueue(
                        name, c.region(), q.name(), q.gpuTypes(), maxPerReplica(q), q.maxGpusPerJob(), q.gpus(),
                        q.description())));
            }
        });
        return out;
    }

    /** The caller's project groups; an admin also gets the other projects of the tenant's jobs. */
    public Uni<List<LookupViews.Project>> projects(Caller caller) {
        Access.requireTenant(caller);
        Uni<List<String>> others = caller.isAdmin() ? lookups.projects(pool, caller.tenant())
                : Uni.createFrom().item(List.of());
        return others.map(more -> {
            TreeSet<String> names = new TreeSet<>(caller.groups());
            names.addAll(more);
            return names.stream().map(n -> new LookupViews.Project(n, caller.inGroup(n))).toList();
        });
    }

    public Uni<List<LookupViews.TagCount>> tags(Caller caller, ListQuery.Scope scope, int limit) {
        Access.requireTenant(caller);
        if (scope == ListQuery.Scope.all && !caller.isAdmin()) {
            throw ApiException.forbidden(Text.of("job.forbidden.scope-all"));
        }
        return lookups.tags(pool, caller, scope, limit)
                .map(m -> m.entrySet().stream().map(e -> new LookupViews.TagCount(e.getKey(), e.getValue())).toList());
    }

    /** Users of the caller's tenant whose name starts with {@code q}, a page at a time by name. */
    public Uni<Page<LookupViews.User>> users(Caller caller, String q, String cursor, int limit) {
        Access.requireTenant(caller);
        List<String> after = Cursors.decode(cursor, 1);
        return users.search(pool, caller.tenant(), q, after == null ? null : after.get(0), limit + 1).map(list -> {
            List<LookupViews.User> items = list.stream().limit(limit)
                    .map(u -> new LookupViews.User(u.name(), u.groups(), u.lastSeenAt())).toList();
            return new Page<>(items, list.size() > limit ? Cursors.encode(items.get(items.size() - 1).name()) : null);
        });
    }

    private int maxPerReplica(SpecRules.Queue q) {
        return q.maxGpusPerReplica() != null ? q.maxGpusPerReplica() : rules.maxGpusPerReplica();
    }
}
