package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The public sample bundles: the 22 of the contract ({@code samples/}) and the ones written from documented message
 * forms of real systems ({@code samples-forms/<family>/}, see its README). With {@code expect} stripped, the category
 * must equal {@code expect.category} or be one of {@code expect.acceptableCategories}, and the action must equal
 * {@code expect.action}: 100 % of them.
 */
class SamplesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    static Stream<Path> samples() throws IOException, URISyntaxException {
        List<Path> files = new ArrayList<>();
        for (String dir : List.of("/samples", "/samples-forms")) {
            try (Stream<Path> s = Files.walk(Path.of(SamplesTest.class.getResource(dir).toURI()))) {
                s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(files::add);
            }
        }
        return files.stream();
    }

    @Test
    void theContractSamplesAndAtLeastEightyFormSamplesAreThere() throws Exception {
        List<Path> all = samples().toList();
        long forms = all.stream().filter(p -> p.toString().contains("samples-forms")).count();
        assertEquals(22, all.size() - forms);
        assertTrue(forms >= 80, () -> "only " + forms + " form samples");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void sampleIsDiagnosedAsExpected(Path file) throws IOException {
        ObjectNode root = (ObjectNode) BundleBuilder.JSON.readTree(file.toFile());
        JsonNode expect = root.remove("expect");
        assertFalse(expect.path("note").asText().isBlank(), "every sample says where its wording comes from");
        BilingualDiagnosis both = ENGINE.analyzeBilingual(EvidenceBundle.fromJson(root));
        Diagnosis d = both.in(Locale.ENGLISH);

        List<String> acceptable = new ArrayList<>();
        acceptable.add(expect.path("category").asText());
        expect.path("acceptableCategories").forEach(c -> acceptable.add(c.asText()));
        assertTrue(acceptable.contains(d.category().name()),
                () -> file.getFileName() + ": got " + d.category() + " (" + d.summary() + "), expected " + acceptable);
        assertEquals(expect.path("action").asText(), d.action().name(), () -> file.getFileName() + ": action");
        assertTrue(d.confidence() > 0 && d.confidence() <= 1);
        assertTrue(d.evidence().size() <= ENGINE.settings().maxEvidence());
        if (d.category() != Category.HEALTHY && d.category() != Category.UNKNOWN) {
            assertFalse(d.evidence().isEmpty(), "a diagnosis quotes evidence");
        }
        assertEquals(d, ENGINE.analyze(EvidenceBundle.fromJson(root), Locale.ENGLISH), "one analysis, any language");
        TextRules.assertOnlyQuotedEvidenceIsReferred(both);
    }
}
