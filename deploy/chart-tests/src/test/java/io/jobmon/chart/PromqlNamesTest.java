package io.jobmon.chart;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PromqlNamesTest {

    @Test
    void functionsLabelsStringsDurationsAndGroupingAreNotMetricNames() {
        assertEquals(Set.of("jobmon_job_failures_total"), PromqlNames.of(
                "sum by (cluster, queue) (increase(jobmon_job_failures_total{reason=\"OOMKilled\"}[15m] offset 5m)) > 3 * 1e3"));
        assertEquals(Set.of("DCGM_FI_DEV_GPU_TEMP"), PromqlNames.of(
                "label_replace(max by (cluster, Hostname) (DCGM_FI_DEV_GPU_TEMP), \"node\", \"$1\", \"Hostname\", \"(.*)\") > 85"));
    }

    @Test
    void everySideOfABinaryOperationAndRecordingRuleNamesAreFound() {
        assertEquals(Set.of("node_memory_MemAvailable_bytes", "node_memory_MemTotal_bytes", "gpu:clock_event_reasons:max"),
                PromqlNames.of("node_memory_MemAvailable_bytes / on (instance) group_left () node_memory_MemTotal_bytes"
                        + " unless floor(gpu:clock_event_reasons:max / 8) % 2 == 0"));
    }

    @Test
    void grafanaVariablesAndLabelValuesQueriesAreUnderstood() {
        assertEquals(Set.of("jobmon_jobs"), PromqlNames.of("label_values(jobmon_jobs{cluster=~\"$cluster\"}, queue)"));
        assertEquals(Set.of(), PromqlNames.of("label_values(cluster)"));
        assertEquals(Set.of("DCGM_FI_DEV_GPU_UTIL"), PromqlNames.of(
                "rate(DCGM_FI_DEV_GPU_UTIL{pod=~\"$job_id-.*\"}[$__rate_interval]) * ${factor}"));
    }
}
