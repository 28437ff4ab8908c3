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
}
