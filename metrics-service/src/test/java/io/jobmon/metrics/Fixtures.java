package io.jobmon.metrics;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.events.MetricSamplesBinary;
import io.jobmon.contracts.events.Topics;
import io.jobmon.metrics.ingest.SeriesBuilder;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.KafkaTestClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Jobs and samples as job-service and the intake put them on Kafka. */
public final class Fixtures {

    private Fixtures() {
    }

    /** The number of points of a chart's series {@code i}, 0 while the chart has no such series yet. */
    public static int points(io.restassured.path.json.JsonPath chart, int i) {
        java.util.List<Object> l = chart.getList("series[" + i + "].points");
        return l == null ? 0 : l.size();
    }

    /** A URL on the management interface (its own port: /q/metrics, /q/health). */
    public static String management(String path) {
        String base = io.quarkus.test.common.http.TestHTTPResourceManager.getManagementUri().replaceAll("/+$", "");
        return (base.endsWith("/q") ? base.substring(0, base.length() - 2) : base) + path;
    }

    public static String newId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A job snapshot of alice's (tenant t1, project-nlp) at {@code version}. */
    public static JobSnapshot job(String id, JobStatus status, List<String> pods, List<String> nodes, int gpus,
            Instant started, Instant finished, long version) {
        return job(id, "alice", "t1", "PRIVATE", List.of(), status, pods, nodes, gpus, started, finished, version);
    }

    public static JobSnapshot job(String id, String owner, String tenant, String visibility, List<String> shares,
            JobStatus status, List<String> pods, List<String> nodes, int gpus, Instant started, Instant finished,
            long version) {
        return new JobSnapshot(id, tenant, owner, "project-nlp", visibility, shares, "train " + id, "c1", "r1",
                "gpu-a100", status, null, "A100", gpus, pods, nodes, false, false, 0, 0,
                started == null ? null : started.minusSeconds(60), started, finished, version, false, "team-nlp", null,
                List.of());
    }

    public static void sendJob(JobSnapshot s, Instant at) {
        CloudEvent<JobSnapshot> e = new CloudEvent<>(CloudEvent.SPEC_VERSION, UUID.randomUUID().toString(),
                "/jobmon/job-service", JobSnapshot.TYPE, s.jobId(), at, CloudEvent.JSON, s);
        KafkaTestClient.send(Topics.JOB_CHANGES, s.jobId(), CloudEvents.encode(e));
    }

    public static Map<String, String> labels(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** dcgm-exporter's labels of a GPU, with the pod mapping when {@code pod} is not null. */
    public static Map<String, String> gpu(String node, int gpu, String pod) {
        Map<String, String> m = labels("gpu", String.valueOf(gpu), "UUID", "GPU-" + node + "-" + gpu,
                "pci_bus_id", "00000000:0" + gpu + ":00.0", "device", "nvidia" + gpu,
                "modelName", "NVIDIA A100-SXM4-80GB", "Hostname", node);
        if (pod != null) {
            m.put("container", "main");
            m.put("namespace", "team-nlp");
            m.put("pod", pod);
        }
        return m;
    }

    /** A value for each sample time. */
    public interface Curve {
        double at(int i, long ms);
    }

    /** {@code count} samples every 15 s from {@code start}. */
    public static List<MetricSamples.Sample> series(String name, Map<String, String> labels, Instant start, int count,
            Curve curve) {
        List<MetricSamples.Sample> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long ms = start.toEpochMilli() + i * 15_000L;
            out.add(new MetricSamples.Sample(name, labels, ms, curve.at(i, ms)));
        }
        return out;
    }

    /** Sends the samples of a node in records of at most 500, in the binary form, as the intake does. */
    public static void sendSamples(String node, List<MetricSamples.Sample> samples) {
        List<Map.Entry<String, byte[]>> records = new ArrayList<>();
        for (List<MetricSamples.Series> part : SeriesBuilder.split(SeriesBuilder.of(samples), 500)) {
            records.add(Map.entry(node, MetricSamplesBinary.encode(node, part)));
        }
        sendBytes(Topics.METRICS_SAMPLES, records);
    }

    /** Sends the samples in the JSON series form (labels once per series), as producers did before the binary one. */
    public static void sendSamplesJson(String node, List<MetricSamples.Sample> samples) {
        List<Map.Entry<String, String>> records = new ArrayList<>();
        for (List<MetricSamples.Series> part : SeriesBuilder.split(SeriesBuilder.of(samples), 500)) {
            records.add(Map.entry(node, jsonSeriesForm(node, part)));
        }
        KafkaTestClient.sendAll(Topics.METRICS_SAMPLES, records);
    }

    /** A record of the JSON series form. */
    public static String jsonSeriesForm(String node, List<MetricSamples.Series> series) {
        return CloudEvents.encode("/test", MetricSamples.TYPE, node, MetricSamples.ofSeries(node, series));
    }

    /** Sends records whose values are bytes, in order, waiting until the broker has them all. */
    public static void sendBytes(String topic, List<Map.Entry<String, byte[]>> records) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p)) {
            records.forEach(r -> producer.send(new ProducerRecord<>(topic, r.getKey(), r.getValue())));
            producer.flush();
        }
    }

    /** Sends the samples in the event's first form (an object per sample), as records written before the series form. */
    public static void sendSamplesFirstForm(String node, List<MetricSamples.Sample> samples) {
        List<Map.Entry<String, String>> records = new ArrayList<>();
        for (int i = 0; i < samples.size(); i += 500) {
            List<MetricSamples.Sample> part = samples.subList(i, Math.min(samples.size(), i + 500));
            records.add(Map.entry(node, CloudEvents.encode("/test", MetricSamples.TYPE, node, new MetricSamples(node, part))));
        }
        KafkaTestClient.sendAll(Topics.METRICS_SAMPLES, records);
    }
}
