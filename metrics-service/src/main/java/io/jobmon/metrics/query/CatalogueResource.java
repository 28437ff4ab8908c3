package io.jobmon.metrics.query;

import io.jobmon.contracts.api.Page;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The metrics charts can ask for, with unit, scope and the exporter series behind each. */
@Path("/api/v1/metrics/catalogue")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class CatalogueResource {

    /** One catalogue entry as the API shows it. */
    public record MetricCatalogueEntry(String name, String title, String unit, String scope, String source, List<String> series,
            String kind) {
    }

    @GET
    @Operation(summary = "The metric names, units and sources: {items}")
    public Page<MetricCatalogueEntry> catalogue() {
        return Page.last(Catalogue.all().stream().map(e -> new MetricCatalogueEntry(e.name(), e.title(), e.unit(), e.scope().name().toLowerCase(),
                e.exporter(), e.sources().stream().map(Catalogue.Source::metric).toList(),
                e.special() != null ? e.special().equals("xid") ? "events" : "derived"
                        : e.sources().get(0).transform().name().toLowerCase())).toList());
    }
}
