package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reference catalogues (issue #25): every row of every file listed in {@code catalogues/index.json} (and of the
 * fixture files of the kinds another catalogue set ships, {@code src/test/resources/catalogue-fixtures/}) is fed to
 * the engine in the form its source prints it ({@link RowBundles}) and must come out as the row's category (its
 * context's category when the example shows one); a row that only informs must leave a healthy job healthy (HEALTHY)
 * or decide nothing (UNKNOWN). A file with a row lacking a source or a language does not load.
 */
class ReferenceCataloguesTest {

    static final ReferenceCatalogues SHIPPED = ReferenceCatalogues.defaults();
    static final ReferenceCatalogues FIXTURES = ReferenceCatalogues.load(
            name -> ReferenceCataloguesTest.class.getResourceAsStream("/catalogue-fixtures/" + name));
    static final DiagnosisEngine ENGINE = new DiagnosisEngine(patternLayer().withReferences(SHIPPED.plus(FIXTURES)));

    static PatternCatalogue patternLayer() {
        return PatternCatalogue.load(ReferenceCataloguesTest.class.getResourceAsStream(PatternCatalogue.DEFAULT_RESOURCE));
    }

    /** Categories read from behaviour (a slowdown, throttling): a failed job did not end because of them. */
    private static final Set<Category> BEHAVIOUR = Set.of(Category.GPU_THERMAL_THROTTLING, Category.TRAINING_SLOWDOWN,
            Category.DATA_LOADING_BOTTLENECK);

    static Stream<Arguments> rows() {
        return SHIPPED.plus(FIXTURES).rows().stream().map(r -> Arguments.of(r.file() + ":" + r.id(), r));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void everyRowIsRecognisedInTheFormItsSourcePrintsIt(String name, ReferenceCatalogues.Row row) throws Exception {
        assertTrue(shows(row), () -> name + ": the example shows none of the row's forms / its code: " + row.example());
        ObjectNode json = RowBundles.forRow(row);
        BilingualDiagnosis d = ENGINE.analyzeBilingual(EvidenceBundle.fromJson(json));
        Category expected = expected(row);
        String got = d.category() + " (" + d.summary().en() + ") related " + d.related();
        if (row.category() == Category.UNKNOWN) {
            assertEquals(Category.UNKNOWN, d.category(), () -> name + " only informs; got " + got);
        } else if ("PENDING".equals(json.path("job").path("status").asText()) && d.category() == Category.UNKNOWN
                && d.action() == Action.WAIT) {
            assertTrue(d.related().contains(expected), () -> name + ": a waiting job, UNKNOWN must name " + expected
                    + "; got " + got);
        } else if (RowBundles.place(row.kind()).equals("container")) {
            assertTrue(d.category() == expected || d.category() == Category.UNKNOWN && d.related().contains(expected),
                    () -> name + ": a bare container state is " + expected + " or UNKNOWN naming it; got " + got);
        } else if (row.kind().equals("dcgm-field") && BEHAVIOUR.contains(expected) && d.category() == Category.UNKNOWN
                && !CatalogueSignals.DEDICATED.contains(row.names().get(0))) {
            assertTrue(d.related().contains(expected), () -> name + ": a behaviour signal on a failed job is not its"
                    + " cause, but UNKNOWN must name " + expected + "; got " + got);
        } else if (row.kind().equals("dcgm-field") && CatalogueSignals.DEDICATED.contains(row.names().get(0))
                && !row.informative()) {
            assertNotNull(CatalogueSignals.fire(row.signal(), EvidenceBundle.fromJson(json).metrics().get(0).samples()));
            assertFalse(d.category() == Category.HEALTHY, () -> name + " has its own analysis; got " + got);
        } else {
            assertEquals(expected, d.category(), () -> name + ": got " + got + " for: " + row.example());
        }
        if (expected != Category.HEALTHY) {
            assertFalse(d.action() == Action.NONE && d.category() != Category.DATA_LOADING_BOTTLENECK
                    && d.category() != Category.UNKNOWN, name);
        } else {
            assertEquals(Action.NONE, d.action(), name);
        }
        TextRules.assertOnlyQuotedEvidenceIsReferred(d);
        if (row.kind().equals("progress-form")) {
            assertNotNull(ProgressParser.parseLine(row.example(), Instant.parse(RowBundles.START), "w-0", 0),
                    () -> name + ": the progress parser reads no step from " + row.example());
        }
        if (row.kind().equals("xid") && !row.informative()) {
            Diagnosis x = ENGINE.analyze(EvidenceBundle.fromJson(RowBundles.xidSeries(row)));
            assertEquals(row.category(), x.category(), () -> name + " as DCGM_FI_DEV_XID_ERRORS: " + x.summary());
        }
    }

    /** The row's category, or its context's when the rest of the example shows one. */
    private static Category expected(ReferenceCatalogues.Row row) {
        if (row.contexts().isEmpty() || !RowBundles.place(row.kind()).equals("log")) {
            return row.category();
        }
        String ex = row.example();
        String lower = ex.toLowerCase(Locale.ROOT);
        for (String f : row.forms()) {
            int at = lower.indexOf(f.toLowerCase(Locale.ROOT));
            if (at >= 0) {
                String rest = ex.substring(0, at) + " " + ex.substring(at + f.length());
                return row.categoryIn(TextContext.pick(TextContext.of(rest), row.contexts().keySet()));
            }
        }
        return row.category();
    }

    /** The example contains one of the row's forms (or, for numeric kinds, its code or field name). */
    private static boolean shows(ReferenceCatalogues.Row row) {
        String ex = row.example().toLowerCase(Locale.ROOT);
        if (row.forms().stream().anyMatch(f -> ex.contains(f.toLowerCase(Locale.ROOT)))) {
            return true;
        }
        return switch (row.kind()) {
            case "xid", "exit-code", "signal" -> ex.contains(row.code().toLowerCase(Locale.ROOT));
            case "dcgm-field", "k8s-container-reason", "k8s-event-reason" ->
                    row.names().stream().anyMatch(n -> ex.contains(n.toLowerCase(Locale.ROOT)));
            default -> false;
        };
    }

    @Test
    void interconnectErrorsRisingOnAJobThatStillAdvancesAreAHardwareFaultToReportNotToRestart() {
        BundleBuilder b = BundleBuilder.job("RUNNING").jobTime("startedAt", "2026-07-13T10:00:00Z")
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:30:00Z").pod("w-0", "gpu-1", "Running", "running", null, null, 0)
                .logs("2026-07-13T10:00:00Z", 30, "w-0", BundleBuilder.tqdm(0, 4000, 20, 30, 0, 61))
                .metric("DCGM_FI_DEV_GPU_UTIL", "gpu-1", "0", "w-0", "2026-07-13T10:00:00Z", BundleBuilder.steady(95, 2, 121))
                .metric("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "gpu-1", "0", "w-0", "2026-07-13T10:00:00Z",
                        BundleBuilder.concat(BundleBuilder.repeat(40, 60), BundleBuilder.steady(900, 0, 1),
                                BundleBuilder.repeat(4000, 60)));
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.GPU_HARDWARE_FAULT, d.category(), d::summary);
        assertEquals(Action.CONTACT_ADMIN, d.action());
        Diagnosis quiet = ENGINE.analyze(BundleBuilder.job("RUNNING").jobTime("startedAt", "2026-07-13T10:00:00Z")
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:30:00Z").pod("w-0", "gpu-1", "Running", "running", null, null, 0)
                .logs("2026-07-13T10:00:00Z", 30, "w-0", BundleBuilder.tqdm(0, 4000, 20, 30, 0, 61))
                .metric("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "gpu-1", "0", "w-0", "2026-07-13T10:00:00Z",
                        BundleBuilder.repeat(40, 121)).build());
        assertEquals(Category.HEALTHY, quiet.category(), quiet::summary);
    }

    @Test
    void theShippedIndexListsOurFilesAndTheDefaultEngineUsesThem() {
        Set<String> names = new HashSet<>();
        SHIPPED.catalogues().forEach(c -> names.add(c.name()));
        assertTrue(names.containsAll(List.of("linux-errno", "python-exceptions", "framework-exceptions",
                "cuda-runtime-errors", "cudnn-status", "cublas-status", "nccl-results", "nccl-warn", "hccl-errors",
                "ascend-errors", "oom-forms", "stall-forms", "progress-forms")), names::toString);
        assertEquals(SHIPPED.rows().size(), PatternCatalogue.defaults().references().rows().size());
        assertTrue(PatternCatalogue.defaults().patterns().stream().anyMatch(p -> p.id().startsWith("cat:linux-errno:")));
    }

    @Test
    void everyErrnoOfTheKernelHeadersIsThere() {
        Set<String> codes = new HashSet<>();
        SHIPPED.rows("errno").forEach(r -> codes.add(r.code()));
        for (int n = 1; n <= 133; n++) {
            if (n != 41 && n != 58) {
                assertTrue(codes.contains(String.valueOf(n)), "errno " + n);
            }
        }
    }

    @Test
    void everyContextWordOfEveryRowIsOneTheEngineReads() {
        for (ReferenceCatalogues.Row r : SHIPPED.plus(FIXTURES).rows()) {
            for (String c : r.contexts().keySet()) {
                assertTrue(TextContext.KNOWN.contains(c), () -> r.file() + ".json row '" + r.id() + "': context '" + c
                        + "' is none of " + TextContext.ORDER + " (or their synonyms)");
            }
        }
        ReferenceCatalogues synonyms = loadOne(FILE_SOURCE, GOOD_ROW.formatted(
                ", \"contexts\": {\"data-path\": \"DATA_PATH_ERROR\", \"socket\": \"NCCL_COMMUNICATION_ERROR\"}"));
        assertEquals(Set.of("storage", "network"), synonyms.rows().get(0).contexts().keySet());
    }

    /** An explanation is what a user reads after the summary: never a printf format of the source. */
    @Test
    void noExplanationQuotesASourceFormat() {
        Pattern printf = Pattern.compile("%[-+ #0]*\\d*(?:\\.\\d+)?[svqdxf]\\b|Format: ");
        for (ReferenceCatalogues.Row r : SHIPPED.rows()) {
            for (String text : List.of(r.explanation().en(), r.explanation().zh())) {
                assertFalse(printf.matcher(text).find(), () -> r.file() + ".json row '" + r.id() + "': " + text);
            }
        }
    }

    @Test
    void everyKindOfTheFormatHasARowThatExercisesItsReader() {
        Set<String> kinds = new HashSet<>();
        SHIPPED.plus(FIXTURES).rows().forEach(r -> kinds.add(r.kind()));
        assertEquals(ReferenceCatalogues.KINDS, kinds);
    }

    // ---- a file that breaks the rules does not load, naming file and row

    private static final String GOOD_ROW = """
            {"id": "EDQUOT", "code": "122", "names": ["EDQUOT"], "forms": ["Disk quota exceeded"],
             "example": "OSError: [Errno 122] Disk quota exceeded: '/mnt/ceph/x'", "category": "DATA_PATH_ERROR",
             "action": "TERMINATE", "explanation": {"en": "Quota used up.", "zh": "配额已用完。"}%s}""";

    private static ReferenceCatalogues loadOne(String fileSource, String row) {
        String file = """
                {"catalogue": "bad", "kind": "errno", "version": "1" %s, "rows": [%s]}""".formatted(fileSource, row);
        Map<String, String> files = new HashMap<>();
        files.put("index.json", "{\"files\": [\"bad.json\"]}");
        files.put("bad.json", file);
        return ReferenceCatalogues.load(name -> files.containsKey(name) ? stream(files.get(name)) : null);
    }

    private static InputStream stream(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    private static final String FILE_SOURCE = ", \"source\": {\"url\": \"https://example.org/errno.h\", \"version\": \"v1\"}";

    @Test
    void aGoodRowLoadsWithTheFilesOrItsOwnSource() {
        assertEquals(1, loadOne(FILE_SOURCE, GOOD_ROW.formatted("")).rows().size());
        ReferenceCatalogues own = loadOne("", GOOD_ROW.formatted(
                ", \"source\": {\"url\": \"https://example.org/own\", \"version\": \"v2\"}"));
        assertEquals("v2", own.rows().get(0).source().version());
    }

    @Test
    void aRowWithoutSourceDoesNotLoad() {
        assertFails("bad.json", "'EDQUOT'", "source", () -> loadOne("", GOOD_ROW.formatted("")));
        assertFails("bad.json", "'EDQUOT'", "source", () -> loadOne("", GOOD_ROW.formatted(
                ", \"source\": {\"url\": \"https://example.org/own\"}")));
        assertFails("bad.json", "'EDQUOT'", "source", () -> loadOne(
                ", \"source\": {\"version\": \"v1\"}", GOOD_ROW.formatted("")));
    }

    @Test
    void aRowWithoutBothLanguagesDoesNotLoad() {
        String noZh = GOOD_ROW.replace(", \"zh\": \"配额已用完。\"", "");
        String noEn = GOOD_ROW.replace("\"en\": \"Quota used up.\", ", "");
        String englishTwice = GOOD_ROW.replace("配额已用完。", "Quota used up.");
        assertFails("bad.json", "'EDQUOT'", "explanation", () -> loadOne(FILE_SOURCE, noZh.formatted("")));
        assertFails("bad.json", "'EDQUOT'", "explanation", () -> loadOne(FILE_SOURCE, noEn.formatted("")));
        assertFails("bad.json", "'EDQUOT'", "Chinese", () -> loadOne(FILE_SOURCE, englishTwice.formatted("")));
    }

    @Test
    void otherBrokenRowsDoNotLoad() {
        assertFails("bad.json", "'EDQUOT'", "category",
                () -> loadOne(FILE_SOURCE, GOOD_ROW.replace("DATA_PATH_ERROR", "DISK_FULL").formatted("")));
        assertFails("bad.json", "'EDQUOT'", "action",
                () -> loadOne(FILE_SOURCE, GOOD_ROW.replace("TERMINATE", "REBOOT").formatted("")));
        assertFails("bad.json", "'EDQUOT'", "form",
                () -> loadOne(FILE_SOURCE, GOOD_ROW.replace("[\"Disk quota exceeded\"]", "[]").formatted("")));
        assertFails("bad.json", "'EDQUOT'", "example", () -> loadOne(FILE_SOURCE,
                GOOD_ROW.replace("\"OSError: [Errno 122] Disk quota exceeded: '/mnt/ceph/x'\"", "\"\"").formatted("")));
        assertFails("bad.json", "'EDQUOT'", "contexts.storage",
                () -> loadOne(FILE_SOURCE, GOOD_ROW.formatted(", \"contexts\": {\"storage\": \"FULL\"}")));
        assertFails("bad.json", "'EDQUOT'", "duplicate",
                () -> loadOne(FILE_SOURCE, GOOD_ROW.formatted("") + "," + GOOD_ROW.formatted("")));
        assertFails("bad.json", "#0", "id", () -> loadOne(FILE_SOURCE, GOOD_ROW.replace("\"id\": \"EDQUOT\", ", "")
                .formatted("")));
    }

    @Test
    void aDcgmFieldRowNeedsASignal() {
        String row = """
                {"id": "crc", "code": "409", "names": ["DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"],
                 "forms": ["DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"], "example": "x 1", "category":
                 "GPU_HARDWARE_FAULT", "action": "CONTACT_ADMIN", "explanation": {"en": "e", "zh": "错误"}%s}""";
        String file = "{\"catalogue\": \"d\", \"kind\": \"dcgm-field\", \"version\": \"1\"" + FILE_SOURCE
                + ", \"rows\": [%s]}";
        for (String signal : List.of("", ", \"signal\": \"sometimes\"")) {
            Map<String, String> files = Map.of("index.json", "{\"files\": [\"d.json\"]}", "d.json",
                    file.formatted(row.formatted(signal)));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ReferenceCatalogues.load(n -> files.containsKey(n) ? stream(files.get(n)) : null));
            assertTrue(e.getMessage().contains("d.json") && e.getMessage().contains("'crc'") && e.getMessage()
                    .contains("signal"), e.getMessage());
        }
    }

    private static void assertFails(String file, String row, String what, Runnable load) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, load::run);
        assertTrue(e.getMessage().contains(file) && e.getMessage().contains(row)
                && e.getMessage().toLowerCase(Locale.ROOT).contains(what.toLowerCase(Locale.ROOT)), e.getMessage());
    }
}
