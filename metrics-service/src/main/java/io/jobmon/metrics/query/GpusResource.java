package io.jobmon.metrics.query;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.readmodel.JobGuard;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The GPUs a job's pods held, as dcgm-exporter's pod labels showed them (ADR 0009), with a count per model
 * ({@code 2 × NVIDIA A800-SXM4-80GB}). 404 when the caller may not see the job.
 */
@Path("/api/v1/jobs/{id}/gpus")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class GpusResource {

    /** One holding: a GPU on a node, its identity, the pod, from its first to its last labelled sample. */
    public record HeldGpu(String node, String gpu, String uuid, String pciBusId, String device, String modelName,
            String namespace, String pod, Instant from, Instant to) {
    }

    /** A model and how many distinct GPUs of it the job held. */
    @Schema(name = "GpuModelCount")
    public record ModelCount(String modelName, int count) {
    }

    /** The job's GPUs ({@code to} null: held when last seen) and the distinct GPUs per model. */
    public record JobGpus(String jobId, List<ModelCount> models, List<HeldGpu> gpus) {
    }

    private final JobGuard guard;
    private final Holdings holdings;
    private final JsonWebToken token;

    public GpusResource(JobGuard guard, Holdings holdings, JsonWebToken token) {
        this.guard = guard;
        this.holdings = holdings;
        this.token = token;
    }

    @GET
    @Operation(summary = "The GPUs the job's pods held (node, index, UUID, PCI bus id, model, pod, from, to)")
    public Uni<JobGpus> gpus(@PathParam("id") String id) {
        return guard.require(CallerFactory.fromToken(token), id, Permission.VIEW)
                .chain(access -> holdings.ofJob(id))
                .map(held -> response(id, held));
    }

    static JobGpus response(String id, List<Holdings.Held> held) {
        List<HeldGpu> gpus = new ArrayList<>(held.size());
        Map<String, java.util.Set<String>> byModel = new LinkedHashMap<>();
        for (Holdings.Held h : held) {
            gpus.add(new HeldGpu(h.node(), h.index(), h.uuid(), h.pciBusId(), h.device(), h.model(), h.namespace(), h.pod(),
                    Instant.ofEpochMilli(h.fromMs()), h.toMs() == null ? null : Instant.ofEpochMilli(h.toMs())));
            byModel.computeIfAbsent(h.model() == null ? "unknown" : h.model(), k -> new java.util.HashSet<>())
                    .add(h.node() + "/" + h.gpu());
        }
        List<ModelCount> models = new ArrayList<>();
        byModel.forEach((m, set) -> models.add(new ModelCount(m, set.size())));
        return new JobGpus(id, models, gpus);
    }
}
