package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The catalogue is data: it loads, validates, and a platform team can extend it without code. */
class PatternCatalogueTest {

    private static ObjectNode shipped() throws Exception {
        try (InputStream in = PatternCatalogue.class.getResourceAsStream(PatternCatalogue.DEFAULT_RESOURCE)) {
            return (ObjectNode) BundleBuilder.JSON.readTree(in);
        }
    }

    private static PatternCatalogue load(ObjectNode json) throws Exception {
        return PatternCatalogue.load(new ByteArrayInputStream(BundleBuilder.JSON.writeValueAsBytes(json)));
    }

    @Test
    void defaultsLoadWithEveryCategoryAndUniquePatterns() {
        PatternCatalogue c = PatternCatalogue.defaults();
        assertEquals(1, c.version());
        for (Category cat : Category.values()) {
            assertNotNull(c.category(cat), cat::name);
        }
        Set<String> ids = new HashSet<>();
        c.patterns().forEach(p -> assertTrue(ids.add(p.id()), p.id()));
        assertTrue(c.patterns().size() > 50);
        assertEquals(Duration.ofMinutes(10), c.settings().hangThreshold());
        assertEquals(Action.NONE, c.category(Category.HEALTHY).action());
        assertEquals(Action.WAIT, c.category(Category.INSUFFICIENT_RESOURCES).action());
    }

    @Test
    void aPlatformTeamCanAddAPatternWithoutCode() throws Exception {
        ObjectNode json = shipped();
        ObjectNode p = ((ArrayNode) json.get("patterns")).addObject();
        p.put("id", "site-storage-quota").put("category", "DATA_PATH_ERROR").put("weight", 0.9).put("priority", 80)
                .put("regex", "LUSTRE-QUOTA-\\d+: project (?<detail>\\w+) is over its storage quota").put("detail", "detail");
        p.putArray("sources").add("log");
        p.putArray("keywords").add("lustre-quota-");
        DiagnosisEngine engine = new DiagnosisEngine(load(json));
        Diagnosis d = engine.analyze(BundleBuilder.job("FAILED").pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "LUSTRE-QUOTA-17: project nlp is over its storage quota").build());
        assertEquals(Category.DATA_PATH_ERROR, d.category());
        assertTrue(d.summary().endsWith("nlp"), d::summary);
    }

    @Test
    void settingsComeFromTheCatalogue() throws Exception {
        ObjectNode json = shipped();
        ((ObjectNode) json.get("settings")).put("hangMinutes", 25).put("maxEvidence", 2);
        PatternCatalogue c = load(json);
        assertEquals(Duration.ofMinutes(25), c.settings().hangThreshold());
        assertEquals(2, c.settings().maxEvidence());
    }

    @Test
    void invalidCataloguesAreRejectedWithThePatternId() throws Exception {
        ObjectNode badRegex = shipped();
        ((ObjectNode) badRegex.get("patterns").get(0)).put("regex", "(unclosed");
        String id = badRegex.get("patterns").get(0).get("id").asText();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load(badRegex)).getMessage().contains(id));

        ObjectNode badCategory = shipped();
        ((ObjectNode) badCategory.get("patterns").get(0)).put("category", "COSMIC_RAYS");
        assertThrows(IllegalArgumentException.class, () -> load(badCategory));

        ObjectNode noKeywords = shipped();
        ((ObjectNode) noKeywords.get("patterns").get(0)).putArray("keywords");
        assertThrows(IllegalArgumentException.class, () -> load(noKeywords));

        ObjectNode missingCategory = shipped();
        ((ObjectNode) missingCategory.get("categories")).remove("GPU_OOM");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load(missingCategory)).getMessage().contains("GPU_OOM"));

        ObjectNode missingGroup = shipped();
        ((ObjectNode) missingGroup.get("patterns").get(0)).put("detail", "nosuchgroup");
        assertThrows(IllegalArgumentException.class, () -> load(missingGroup));

        ObjectNode badAction = shipped();
        ((ObjectNode) badAction.get("patterns").get(0)).put("action", "PANIC");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load(badAction)).getMessage().contains(id));

        ObjectNode badPrecedence = shipped();
        ((ObjectNode) badPrecedence.get("patterns").get(0)).put("group", "SOMEWHERE");
        assertThrows(IllegalArgumentException.class, () -> load(badPrecedence));

        ObjectNode badNodeWeight = shipped();
        ((ObjectNode) badNodeWeight.get("patterns").get(0)).put("failedPodNodeWeight", 1.5);
        assertThrows(IllegalArgumentException.class, () -> load(badNodeWeight));

        ObjectNode noUnplacedSummary = shipped();
        ((ObjectNode) noUnplacedSummary.get("categories").get("NODE_FAILURE")).remove("summaryUnplaced");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load(noUnplacedSummary)).getMessage()
                .contains("NODE_FAILURE"), "a summary naming {node} needs one that does not");
    }
}
