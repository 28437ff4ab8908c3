package io.jobmon.contracts.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every record serialises to the JSON its published schema describes, and a bad record is refused with a reason. */
class SchemaTest {

    static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            b -> b.schemaMappers(m -> m.mapPrefix("https://jobmon.io/schemas/", "classpath:schemas/")));
    static final Instant T = Instant.parse("2026-07-13T09:30:00Z");

    static Set<ValidationMessage> validate(String schema, Object value) {
        JsonSchema s = FACTORY.getSchema(SchemaLocation.of("https://jobmon.io/schemas/" + schema));
        return s.validate(CloudEvents.MAPPER.valueToTree(value));
    }

    static void assertValid(String schema, Object value) {
        Set<ValidationMessage> errors = validate(schema, value);
        assertTrue(errors.isEmpty(), schema + ": " + errors);
    }

    static JobSnapshot snapshot() {
        return new JobSnapshot("j-1", "t1", "alice", "project-nlp", "PROJECT", List.of("carol"), "llama-sft",
                "prod-a", "cn-north", "gpu-prod", JobStatus.RUNNING, null, "A800", 2, List.of("llama-sft-0"),
                List.of("gpu-node-7"), true, true, 0, 3, T, T.plusSeconds(60), null, 7, false);
    }

    @Test
    void everyTopicRecordMatchesItsSchema() {
        PodSummary pod = new PodSummary("llama-sft-0", "team-a", "gpu-node-7", "Failed", null,
                List.of(new PodSummary.ContainerSummary("trainer", "terminated", "OOMKilled", 137, 2)),
                List.of(new PodSummary.Condition("Ready", "False", "PodFailed", null,
                        java.time.Instant.parse("2026-07-13T09:30:00Z"))));
        assertValid("job-status-changed.schema.json",
                new JobStatusChanged("j-1", "prod-a", JobStatus.FAILED, "OOMKilled", "container trainer", 137, T, 4, List.of(pod)));
        assertValid("job-snapshot.schema.json", snapshot());
        assertValid("job-command.schema.json",
                new JobCommand("c-1", "j-1", JobCommand.Kind.RESTART, List.of("d-1", "d-2"), "NCCL timeout", T));
        assertValid("metric-samples.schema.json", new MetricSamples("gpu-node-7",
                List.of(new MetricSamples.Sample("DCGM_FI_DEV_GPU_UTIL", Map.of("gpu", "0"), T.toEpochMilli(), 97))));
        assertValid("metric-samples.schema.json", MetricSamples.ofSeries("gpu-node-7", List.of(new MetricSamples.Series(
                "DCGM_FI_DEV_GPU_UTIL", Map.of("gpu", "0"), new long[] {T.toEpochMilli(), T.toEpochMilli() + 15_000},
                new double[] {97, 98.5}))));
        assertValid("diagnosis-finished.schema.json",
                new DiagnosisFinished("d-1", "j-1", "JOB_FAILED", "GPU_OOM", "TERMINATE", "CUDA OOM", 0.95, T));
        assertValid("gpu-holding.schema.json", new GpuHolding("prod-a", "gpu-node-7", "7", "GPU-5c1d", "00000000:CB:00.0",
                "nvidia7", "NVIDIA A800-SXM4-80GB", "team-a", "llama-sft-0", T, null));
        assertValid("k8s-raw-object.schema.json", new K8sRawObject("prod-a", "cn-north", "ADDED",
                CloudEvents.MAPPER.createObjectNode().put("kind", "Pod").set("metadata",
                        CloudEvents.MAPPER.createObjectNode().put("name", "llama-sft-0"))));
        assertValid("problem.schema.json", ApiException.badRequest("resources.gpusPerReplica", "must be ≥ 0").toProblem());
        assertValid("cloudevent.schema.json", CloudEvents.wrap("/jobmon/job-service", JobSnapshot.TYPE, "j-1", snapshot()));
    }

    @Test
    void theSchemasRejectWhatConsumersWouldRefuse() {
        Map<String, Object> noTenant = Map.of("jobId", "j-1", "owner", "alice", "version", 1, "deleted", false);
        assertFalse(validate("job-snapshot.schema.json", noTenant).isEmpty());
        assertFalse(validate("job-status-changed.schema.json",
                Map.of("jobId", "j-1", "status", "EXPLODED", "time", "2026-07-13T09:30:00Z", "sequence", 1)).isEmpty());
        assertFalse(validate("problem.schema.json", Problem.of(200, "OK", "fine")).isEmpty());
        assertFalse(validate("metric-samples.schema.json", Map.of("node", "gpu-node-7")).isEmpty());
        assertFalse(validate("metric-samples.schema.json", Map.of("series", List.of(Map.of("name", "up",
                "timestampsMs", List.of(1))))).isEmpty());
    }

    @Test
    void anEventRoundTripsThroughTheWireFormat() {
        String wire = CloudEvents.encode("/jobmon/job-service", JobSnapshot.TYPE, "j-1", snapshot());
        CloudEvent<JobSnapshot> back = CloudEvents.decode(wire, JobSnapshot.class);
        assertEquals(snapshot(), back.data());
        assertEquals("j-1", back.subject());
        assertEquals(CloudEvent.SPEC_VERSION, back.specversion());
    }

    @Test
    void badRecordsAreRefusedWithAReasonAPersonCanAct() {
        assertEquals("empty record value",
                assertThrows(InvalidRecordException.class, () -> CloudEvents.decode("", JobSnapshot.class)).getMessage());
        assertTrue(assertThrows(InvalidRecordException.class, () -> CloudEvents.decode("{oops", JobSnapshot.class))
                .getMessage().startsWith("not JSON"));
        assertTrue(assertThrows(InvalidRecordException.class, () -> CloudEvents.decode("{\"id\":\"1\"}", JobSnapshot.class))
                .getMessage().contains("'data'"));
        String noTenant = "{\"id\":\"1\",\"data\":{\"jobId\":\"j-1\",\"owner\":\"alice\"}}";
        assertEquals("missing 'tenant'",
                assertThrows(InvalidRecordException.class, () -> CloudEvents.decode(noTenant, JobSnapshot.class)).getMessage());
        String badStatus = "{\"id\":\"1\",\"data\":{\"jobId\":\"j-1\",\"status\":\"EXPLODED\",\"time\":\"2026-07-13T09:30:00Z\"}}";
        assertTrue(assertThrows(InvalidRecordException.class, () -> CloudEvents.decode(badStatus, JobStatusChanged.class))
                .getMessage().contains("EXPLODED"));
        String wrongKind = "{\"id\":\"1\",\"data\":{\"cluster\":\"a\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}}}";
        assertTrue(assertThrows(InvalidRecordException.class, () -> CloudEvents.decode(wrongKind, K8sRawObject.class))
                .getMessage().contains("Node"));
    }
}
