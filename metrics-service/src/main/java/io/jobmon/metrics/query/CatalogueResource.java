package io.jobmon.metrics.query;

import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Texts;
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

    /** Catalogue key prefix of the metrics' titles: {@code metric.title.<name>}. */
    public static final String TITLE = "metric.title.";

    private final I18n i18n;

    public CatalogueResource(I18n i18n) {
        this.i18n = i18n;
    }

    /** One catalogue entry as the API shows it. */
    public record MetricCatalogueEntry(String name, String title, String unit, String scope, String source,
            List<String> series, String kind) {
    }

    @GET
    @Operation(summary = "The metric names, units and sources, titles in the reader's language: {items}")
    public Page<MetricCatalogueEntry> catalogue() {
        Texts t = i18n.forRequest();
        return Page.last(Catalogue.all().stream().map(e -> new MetricCatalogueEntry(e.name(), t.text(TITLE + e.name()),
                e.unit(), e.scope().name().toLowerCase(),
                e.exporter(), e.sources().stream().map(Catalogue.Source::metric).toList(),
                e.special() != null ? e.special().equals("xid") ? "events" : "derived"
                        : e.sources().get(0).transform().name().toLowerCase())).toList());
    }
}
