package io.jobmon.metrics.store;

import java.util.Map;

/** A stored series as the query side sees it: identity, node, the labels attribution and grouping read. */
public record SeriesRef(long id, String metric, String node, boolean counter, String gpu, String pod,
        String namespace, String cluster, Map<String, String> labels) {
}
