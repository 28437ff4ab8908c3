package io.jobmon.metrics.scrape;

/**
 * An endpoint to scrape: static ({@code source = static}) or discovered ({@code k8s:<cluster>}).
 *
 * @param job {@code dcgm-exporter} or {@code node-exporter}: the Prometheus job label
 * @param node the node the exporter reports on (the samples' Kafka key)
 */
public record ScrapeTarget(String id, String url, String job, String node, String cluster, String pool, String source) {

    /** The lease name of this target. */
    public String lease() {
        return "scrape:" + id;
    }
}
