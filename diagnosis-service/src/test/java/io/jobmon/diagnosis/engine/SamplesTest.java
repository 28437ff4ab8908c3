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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The public sample bundles (test resources {@code samples/*.json}): with {@code expect} stripped, the
 * category must equal {@code expect.category} or be one of {@code expect.acceptableCategories}, and
 * the action must equal {@code expect.action}.
 */
class SamplesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    static Stream<Path> samples() throws IOException, URISyntaxException {
        Path dir = Path.of(SamplesTest.class.getResource("/samples").toURI());
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(files::add);
        }
        assertFalse(files.isEmpty(), "no samples found");
        return files.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void sampleIsDiagnosedAsExpected(Path file) throws IOException {
        ObjectNode root = (ObjectNode) BundleBuilder.JSON.readTree(file.toFile());
        JsonNode expect = root.remove("expect");
        Diagnosis d = ENGINE.analyze(EvidenceBundle.fromJson(root), Locale.ENGLISH);

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
    }
}
