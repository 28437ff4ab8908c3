package io.jobmon.diagnosis.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.diagnosis.engine.EvidenceBundle;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The other services' answers become valid bundle sections, whatever list wrapper or time form they use. */
class ShapesTest {

    private static final ObjectMapper M = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return M.readTree(s.replace('\'', '"'));
    }

    @Test
    void aJobDetailBecomesTheJobSection() throws Exception {
        ObjectNode job = SourceShapes.job(json("{'id':'j1','name':'llama','status':'FAILED','submittedAt':'2026-07-13T09:30:00+08:00',"
                + "'gpuType':'A800','gpusPerReplica':8,'replicas':2,'queue':'gpu-prod','supportsRestart':true,"
                + "'retry':{'count':1,'max':3}}"));
        assertEquals("16*A800", job.get("gpuSpec").asText());
        assertEquals("2026-07-13T01:30:00Z", job.get("submittedAt").asText());
        assertEquals(1, job.get("retryCount").asInt());
        assertEquals(3, job.get("maxRetries").asInt());
    }

    @Test
    void eventsLogsAndPodsAcceptTheirUsualForms() throws Exception {
        ArrayNode events = SourceShapes.events(json("{'items':[{'lastTime':'2026-07-13T10:00:00Z','type':'Warning',"
                + "'reason':'FailedMount','objectKind':'Pod','objectName':'w-0','message':'m'},{'reason':'no time'}]}"));
        assertEquals(1, events.size());
        assertEquals("Pod/w-0", events.get(0).get("object").asText());
        ArrayNode logs = SourceShapes.logs(json("[{'timestamp':1783936801.5,'pod':'w-0','type':'user','message':'b'},"
                + "{'time':'2026-07-13T10:00:00Z','pod':'w-0','stream':'user','line':'a'}]"));
        assertEquals("a", logs.get(0).get("line").asText());
        assertEquals("user", logs.get(1).get("stream").asText());
        ArrayNode pods = SourceShapes.pods(json("{'pods':[{'name':'w-0','nodeName':'n1','phase':'Failed',"
                + "'containers':[{'name':'t','state':'terminated','reason':'OOMKilled','exitCode':137,'restarts':2}]}]}"));
        assertEquals(137, pods.get(0).get("containers").get(0).get("exitCode").asInt());
        ObjectNode bundle = M.createObjectNode();
        bundle.set("events", events);
        bundle.set("logs", logs);
        bundle.set("pods", pods);
        EvidenceBundle parsed = EvidenceBundle.fromJson(bundle);
        assertEquals(2, parsed.logs().size());
    }

    @Test
    void metricsGetDcgmNamesLabelsAndRfc3339Samples() throws Exception {
        ArrayNode metrics = MetricShapes.metrics(json("{'series':[{'metric':'gpu_util','pod':'w-0','node':'n1','gpu':'3',"
                + "'values':[[1783936800,'97.5'],[1783936815000,96],['2026-07-13T10:00:30Z',null]]}]}"));
        JsonNode m = metrics.get(0);
        assertEquals("DCGM_FI_DEV_GPU_UTIL", m.get("name").asText());
        assertEquals("n1", m.get("labels").get("Hostname").asText());
        assertEquals(2, m.get("samples").size());
        assertEquals(97.5, m.get("samples").get(0).get(1).asDouble());
        assertEquals("gpu_util", MetricShapes.shortName("DCGM_FI_DEV_GPU_UTIL"));
        ObjectNode bundle = M.createObjectNode();
        bundle.set("metrics", metrics);
        assertEquals(1, EvidenceBundle.fromJson(bundle).metrics().size());
    }

    @Test
    void metricsServicesAnswerGroupedByGpuKeepsNodeAndGpuAndItsCatalogueNamesMapToDcgm() throws Exception {
        // GET /api/v1/jobs/{id}/metrics?metric=throttle_reasons&groupBy=gpu as metrics-service answers it
        ArrayNode metrics = MetricShapes.metrics(json("{'series':[{'metric':'throttle_reasons','unit':'bitmask',"
                + "'group':{'node':'h100-01','gpu':'2'},'attribution':'labels',"
                + "'points':[['2026-12-01T19:31:15Z',96.0]]}]}"));
        JsonNode m = metrics.get(0);
        assertEquals("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", m.get("name").asText());
        assertEquals("h100-01", m.get("labels").get("Hostname").asText());
        assertEquals("2", m.get("labels").get("gpu").asText());
        assertEquals("xid", MetricShapes.shortName("DCGM_FI_DEV_XID_ERRORS"));
        assertEquals("sm_clock", MetricShapes.shortName("DCGM_FI_DEV_SM_CLOCK"));
    }

    @Test
    void aStatusRecordSeedsPodsAndAWarningEvent() {
        JobStatusChanged c = new JobStatusChanged("j1", "c1", JobStatus.FAILED, "OOMKilled", "OOMKilled", 137,
                Instant.parse("2026-07-13T10:00:00Z"), 4, List.of(new PodSummary("w-0", "ns", "n1", "Failed", null,
                        List.of(new PodSummary.ContainerSummary("t", "terminated", "OOMKilled", 137, 1)))));
        ObjectNode seed = LocalEvidence.fromStatus(c);
        EvidenceBundle b = EvidenceBundle.fromJson(seed);
        assertEquals("FAILED", b.job().status());
        assertEquals(137, b.pods().get(0).containers().get(0).exitCode());
        assertEquals("Job/j1", b.events().get(0).object());
        ObjectNode merged = LocalEvidence.merge(seed, (ObjectNode) M.createObjectNode().set("job",
                M.createObjectNode().put("status", "RUNNING").put("maxRetries", 3)));
        assertEquals("FAILED", merged.get("job").get("status").asText());
        assertEquals(3, merged.get("job").get("maxRetries").asInt());
        assertFalse(merged.has("logs"));
    }
    @Test
    void jobServicesDetailAndChainGiveTheRetryFactsAndTheFailingReason() throws Exception {
        JsonNode detail = json("{'id':'j1','name':'llama','status':'ABNORMAL','reason':'NodeLost','message':'node n1 is lost',"
                + "'gpu':'A800','gpuCount':16,'startedAt':'2026-07-13T09:00:00Z','finishedAt':'2026-07-13T10:00:00Z',"
                + "'retry':{'attempt':1,'supportsRestart':true,'autoFaultHandling':true,'maxRetries':3,'retriesUsed':1}}");
        ObjectNode job = SourceShapes.job(detail);
        assertEquals("16*A800", job.get("gpuSpec").asText());
        assertEquals(1, job.get("retryCount").asInt());
        assertEquals(3, job.get("maxRetries").asInt());
        assertEquals(true, job.get("supportsRestart").asBoolean());
        ObjectNode transition = SourceShapes.transition(detail);
        assertEquals("NodeLost", transition.get("reason").asText());
        assertEquals("Job/j1", transition.get("object").asText());
        assertEquals("2026-07-13T10:00:00Z", transition.get("time").asText());
        assertEquals(null, SourceShapes.transition(json("{'id':'j2','status':'RUNNING','reason':'Started'}")));
        ObjectNode bare = SourceShapes.job(json("{'id':'j3','status':'FAILED'}"));
        SourceShapes.addAttempts(bare, json("{'rootId':'j3','supportsRestart':true,'maxRetries':2,'retriesUsed':2}"));
        assertEquals(2, bare.get("retryCount").asInt());
        assertEquals(2, bare.get("maxRetries").asInt());
    }

    @Test
    void eventIngestsItemsNameTheirObjectAndNodeEventsTheirNode() throws Exception {
        ArrayNode events = SourceShapes.events(json("{'items':[{'time':'2026-07-13T10:00:00Z','type':'Warning',"
                + "'reason':'BackOff','message':'m','pod':'w-0','object':{'kind':'Pod','name':'w-0','namespace':'ns'}},"
                + "{'time':'2026-07-13T09:58:00Z','type':'Warning','reason':'SystemOOM','message':'System OOM encountered',"
                + "'node':'gpu-node-7','object':{'kind':'Node','name':'gpu-node-7'}},"
                + "{'time':'2026-07-13T09:57:00Z','type':'Warning','reason':'NodeNotReady','node':'gpu-node-8'}],"
                + "'nextCursor':null}"));
        assertEquals("Pod/w-0", events.get(0).get("object").asText());
        assertEquals("Node/gpu-node-7", events.get(1).get("object").asText());
        assertEquals("Node/gpu-node-8", events.get(2).get("object").asText());
    }

    @Test
    void metricsServiceSeriesBecomeDcgmSeriesXidCodesAndEccTotals() throws Exception {
        ArrayNode metrics = MetricShapes.metrics(json("{'stepSeconds':15,'series':["
                + "{'metric':'gpu_util','unit':'%','group':{'node':'n1','gpu':'3'},'points':[['2026-07-13T10:00:00Z',97.0],"
                + "['2026-07-13T10:00:15Z',null]]},"
                + "{'metric':'xid','unit':'events','group':{'code':'79'},'points':[['2026-07-13T10:01:00Z',1.0]]},"
                + "{'metric':'ecc_dbe','group':{'node':'n1','gpu':'3'},'points':[['2026-07-13T10:00:00Z',2.0],"
                + "['2026-07-13T10:00:15Z',0.0],['2026-07-13T10:00:30Z',1.0]]}]}"));
        JsonNode util = metrics.get(0);
        assertEquals("DCGM_FI_DEV_GPU_UTIL", util.get("name").asText());
        assertEquals("n1", util.get("labels").get("Hostname").asText());
        assertEquals("3", util.get("labels").get("gpu").asText());
        assertEquals(1, util.get("samples").size());
        JsonNode xid = metrics.get(1);
        assertEquals("DCGM_FI_DEV_XID_ERRORS", xid.get("name").asText());
        assertEquals(79.0, xid.get("samples").get(0).get(1).asDouble(), "the sample is the Xid code, as dcgm-exporter");
        JsonNode ecc = metrics.get(2);
        assertEquals("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", ecc.get("name").asText());
        assertEquals(List.of(0.0, 2.0, 2.0, 3.0), values(ecc), "a running total from zero, as the counter");
        assertEquals("xid", MetricShapes.shortName("xid_errors"));
        assertEquals("throttle_reasons", MetricShapes.shortName("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"));
        ObjectNode bundle = M.createObjectNode();
        bundle.set("metrics", metrics);
        assertEquals(3, EvidenceBundle.fromJson(bundle).metrics().size());
    }

    @Test
    void aGpusIdentityBecomesDcgmExportersLabelsAndNvlinkAndPcieErrorCountsTheirCounters() throws Exception {
        // groupBy=gpu as metrics-service answers it: node, index, UUID, PCI bus id and the pod that held the GPU
        ArrayNode metrics = MetricShapes.metrics(json("{'series':["
                + "{'metric':'nvlink_crc_flit_errors','unit':'errors','attribution':'gpu','group':{'node':'n1','gpu':'2',"
                + "'uuid':'GPU-5d0c','pciBusId':'00000000:47:00.0','pod':'w-1'},'points':[['2026-07-13T10:00:00Z',4.0],"
                + "['2026-07-13T10:00:15Z',3.0]]},"
                + "{'metric':'pcie_replays','group':{'node':'n1','gpu':'2'},'points':[['2026-07-13T10:00:00Z',0.0],"
                + "['2026-07-13T10:00:15Z',5.0]]},"
                + "{'metric':'remapped_rows_uncorrectable','group':{'node':'n1','gpu':'2'},'points':[['2026-07-13T10:00:00Z',1.0],"
                + "['2026-07-13T10:00:15Z',1.0]]}]}"));
        JsonNode nvlink = metrics.get(0);
        assertEquals("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", nvlink.get("name").asText());
        assertEquals("n1", nvlink.get("labels").get("Hostname").asText());
        assertEquals("GPU-5d0c", nvlink.get("labels").get("UUID").asText());
        assertEquals("00000000:47:00.0", nvlink.get("labels").get("pci_bus_id").asText());
        assertEquals("w-1", nvlink.get("labels").get("pod").asText());
        assertEquals(List.of(0.0, 4.0, 7.0), values(nvlink), "errors per step back into the exporter's counter");
        assertEquals("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", metrics.get(1).get("name").asText());
        assertEquals(List.of(0.0, 5.0), values(metrics.get(1)));
        assertEquals("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", metrics.get(2).get("name").asText());
        assertEquals(List.of(1.0, 1.0), values(metrics.get(2)), "a level stays as it is");
    }

    @Test
    void theRunAtOneMinuteAndTheWindowAtFullResolutionJoinIntoOneSeries() throws Exception {
        ArrayNode run = MetricShapes.metrics(json("{'series':[{'metric':'gpu_util','group':{'node':'n1','gpu':'0'},"
                + "'points':[['2026-07-13T09:00:00Z',90],['2026-07-13T09:01:00Z',91],['2026-07-13T09:30:00Z',92]]}]}"));
        ArrayNode window = MetricShapes.metrics(json("{'series':[{'metric':'gpu_util','group':{'node':'n1','gpu':'0'},"
                + "'points':[['2026-07-13T09:30:00Z',5],['2026-07-13T09:30:15Z',0]]},"
                + "{'metric':'gpu_util','group':{'node':'n1','gpu':'1'},'points':[['2026-07-13T09:30:00Z',7]]}]}"));
        ArrayNode joined = MetricShapes.join(run, window, "2026-07-13T09:30:00Z");
        assertEquals(2, joined.size());
        assertEquals(List.of(90.0, 91.0, 5.0, 0.0), values(joined.get(0)));
        assertEquals(5, MetricShapes.points(joined));
    }

    private static List<Double> values(JsonNode series) {
        List<Double> out = new java.util.ArrayList<>();
        series.get("samples").forEach(p -> out.add(p.get(1).asDouble()));
        return out;
    }
}
