package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.testsupport.ZhCnText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Every public sample's diagnosis in Chinese has no English word in its texts (summary, suggestion, jobmon's own
 * evidence texts); quoted log and event lines are the cluster's words.
 */
class ChineseDiagnosesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    /**
     * Names of the software and hardware the reference catalogues explain, and the CUDA and distributed-training
     * terms Chinese writing keeps in English.
     */
    private static final String[] TERMS = {"Triton", "Horovod", "Ampere", "torchvision", "webdataset", "xformers",
        "rank", "block"};

    @Test
    void everySampleReadsInChinese() throws Exception {
        List<String> found = new ArrayList<>();
        for (Path file : SamplesTest.samples().toList()) {
            ObjectNode root = (ObjectNode) BundleBuilder.JSON.readTree(file.toFile());
            root.remove("expect");
            Diagnosis zh = ENGINE.analyze(EvidenceBundle.fromJson(root), Locale.SIMPLIFIED_CHINESE);
            ZhCnText.rules().allow(TERMS).violations(BundleBuilder.JSON.writeValueAsString(zh))
                    .forEach(v -> found.add(file.getFileName() + " " + v));
        }
        assertEquals(List.of(), found);
    }

    @Test
    void aGpuWhoseLabelsDoNotSayWhichIsNamedWithoutNullsAndTheSeriesByItsLabel() throws Exception {
        for (String[] labels : new String[][] {{null, null, "GPU 的最近的 Xid 错误"}, {null, "5", "GPU 5 的最近的 Xid 错误"},
            {"h1", null, "h1 上的 GPU 的最近的 Xid 错误"}}) {
            BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-08-09T13:45:00Z")
                    .pod("w-0", "h1", "Failed", "terminated", "Error", 1, 0)
                    .metric("DCGM_FI_DEV_XID_ERRORS", labels[0], labels[1], "w-0", "2026-08-09T13:30:00Z",
                            BundleBuilder.concat(BundleBuilder.repeat(0, 40), BundleBuilder.repeat(79, 20)));
            Diagnosis zh = ENGINE.analyze(b.build(), Locale.SIMPLIFIED_CHINESE);
            String text = zh.evidence().stream().filter(e -> Evidence.METRIC.equals(e.source())).findFirst()
                    .orElseThrow().text();
            assertEquals(labels[2] + "（DCGM_FI_DEV_XID_ERRORS） = 79", text);
            ZhCnText.assertChinese(BundleBuilder.JSON.writeValueAsString(zh));
            String en = ENGINE.analyze(b.build(), Locale.ENGLISH).evidence().stream()
                    .filter(e -> Evidence.METRIC.equals(e.source())).findFirst().orElseThrow().text();
            assertEquals(false, en.contains("null") || en.contains("?"), en);
        }
    }
}
