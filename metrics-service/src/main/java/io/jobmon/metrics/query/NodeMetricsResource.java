package io.jobmon.metrics.query;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.metrics.jobs.JobRepository;
import io.jobmon.metrics.scrape.TargetsResource;
import io.jobmon.metrics.store.SeriesRef;
import io.jobmon.metrics.store.SeriesStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Admins: a node and its GPUs, and which of their tenant's jobs held them when. */
@Path("/api/v1/nodes/{node}/metrics")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class NodeMetricsResource {

    static final List<String> DEFAULT_METRICS = List.of("gpu_util", "gpu_mem_used", "gpu_temp", "gpu_power");

    /** A job's stay on the node; {@code jobId} null for another tenant's job. */
    @Schema(name = "NodeGpuHolder")
    public record Holder(String jobId, String name, String owner, List<String> pods, Integer gpus, Instant from,
            Instant to, String source) {
    }

    /** The node's chart and its holders. */
    @Schema(name = "NodeMetricChart")
    public record Response(Chart.Response chart, List<Holder> jobs) {
    }

    private final SeriesStore store;
    private final JobMetricsService charts;
    private final JobRepository jobs;
    private final Pool pool;
    private final JsonWebToken token;

    public NodeMetricsResource(SeriesStore store, JobMetricsService charts, JobRepository jobs, Pool pool,
            JsonWebToken token) {
        this.store = store;
        this.charts = charts;
        this.jobs = jobs;
        this.pool = pool;
        this.token = token;
    }

    @GET
    @Operation(summary = "A node's GPU and node metrics per GPU, with the jobs that held them (admins)")
    public Uni<Response> node(@PathParam("node") String node, @QueryParam("metric") List<String> metric,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("step") String step,
            @QueryParam("resolution") String resolution, @QueryParam("groupBy") String groupBy,
            @QueryParam("aggregation") String aggregation) {
        Caller caller = CallerFactory.fromToken(token);
        TargetsResource.requireAdmin(caller, "metrics.node-admins-only");
        ChartParams params = ChartParams.parse(metric, from, to, step, resolution, groupBy, aggregation, DEFAULT_METRICS,
                GroupBy.GPU);
        Instant now = Instant.now();
        Instant[] range = params.range(now.minus(Duration.ofHours(1)), now);
        long f = range[0].toEpochMilli();
        long t = range[1].toEpochMilli();
        ResolutionChoice rc = charts.choose(params, f, t, now.toEpochMilli());
        long start = Buckets.align(f, rc.stepMs());
        int n = Buckets.count(start, t, rc.stepMs());
        Set<String> names = new LinkedHashSet<>();
        params.metrics().forEach(e -> e.sources().forEach(s -> names.add(s.metric())));
        return store.onNodes(List.of(node), names).chain(series -> {
            List<Attribution.Attributed> all = new ArrayList<>();
            for (SeriesRef s : series) {
                all.add(new Attribution.Attributed(s, s.pod(), null, null));
            }
            return charts.read(all, rc, start, t).chain(data -> holders(caller, node, f, t, series).map(h -> {
                List<Chart.Series> lines = new ArrayList<>();
                for (Catalogue.Entry e : params.metrics()) {
                    lines.addAll(ChartEngine.lines(e, all.stream().filter(a -> ChartEngine.sourceOf(e, a) != null).toList(),
                            data, rc, start, n, params.aggregation(), params.groupBy()));
                }
                return new Response(new Chart.Response(null, node, range[0], range[1], rc.stepMs() / 1000,
                        rc.source().label, params.aggregation().name().toLowerCase(),
                        params.groupBy().name().toLowerCase(), lines, List.of(), List.of()), h);
            }));
        });
    }

    private Uni<List<Holder>> holders(Caller caller, String node, long from, long to, List<SeriesRef> series) {
        Set<String> pods = new LinkedHashSet<>();
        series.forEach(s -> {
            if (s.pod() != null) {
                pods.add(s.pod());
            }
        });
        return jobs.onNodes(new String[] {node}, from, to, null).chain(intervals -> pool.preparedQuery(
                "SELECT job_id, tenant, name, owner, pods FROM job_info WHERE job_id = ANY($1) OR pods && $2")
                .execute(Tuple.of(intervals.stream().map(JobRepository.JobInterval::jobId).toArray(String[]::new),
                        pods.toArray(String[]::new)))
                .map(rows -> {
                    List<Holder> out = new ArrayList<>();
                    java.util.Map<String, Row> info = new java.util.HashMap<>();
                    rows.forEach(r -> info.put(r.getString("job_id"), r));
                    for (JobRepository.JobInterval i : intervals) {
                        Row r = info.get(i.jobId());
                        boolean mine = r != null && caller.tenant() != null && caller.tenant().equals(r.getString("tenant"));
                        out.add(new Holder(mine ? i.jobId() : null, mine ? r.getString("name") : null,
                                mine ? r.getString("owner") : null, mine ? i.interval().pods() : List.of(),
                                i.interval().gpus(), Instant.ofEpochMilli(i.interval().fromMs()),
                                i.interval().toMs() == null ? null : Instant.ofEpochMilli(i.interval().toMs()),
                                "placement"));
                    }
                    for (Row r : rows) {
                        boolean mine = caller.tenant() != null && caller.tenant().equals(r.getString("tenant"));
                        List<String> jobPods = List.of(r.getArrayOfStrings("pods"));
                        List<String> seen = pods.stream().filter(jobPods::contains).toList();
                        if (mine && !seen.isEmpty()) {
                            out.add(new Holder(r.getString("job_id"), r.getString("name"), r.getString("owner"), seen,
                                    null, null, null, "labels"));
                        }
                    }
                    return out;
                }));
    }
}
