package io.jobmon.metrics.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text exposition format and OpenMetrics, on real exporter output. */
class ExpositionParserTest {

    static String resource(String name) {
        try (InputStream in = ExpositionParserTest.class.getResourceAsStream("/exporters/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ExpositionParser.Sample find(ExpositionParser.Result r, String name, Map<String, String> labels) {
        return r.samples().stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + labels));
    }

    @Test
    void nodeExportersEndToEndOutputParsesEverySampleWithItsType() {
        String text = resource("node-exporter-e2e-output.txt");
        long lines = text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        ExpositionParser.Result r = ExpositionParser.parse(text, false);
        assertEquals(lines, r.samples().size());
        assertEquals(10870.69, find(r, "node_cpu_seconds_total", Map.of("cpu", "0", "mode", "idle")).value());
        assertEquals(1.8527668e7, find(r, "node_infiniband_port_data_received_bytes_total",
                Map.of("device", "mlx4_0", "port", "1")).value());
        assertEquals("counter", r.types().get("node_network_receive_bytes_total"));
        assertEquals("gauge", r.types().get("node_memory_Active_bytes"));
        assertNull(r.samples().get(0).timestampMs());
    }

    @Test
    void dcgmExporterOutputKeepsEveryLabelIncludingThePodMappingAndTheXidCode() {
        ExpositionParser.Result r = ExpositionParser.parse(resource("dcgm-exporter-a100-pods.txt"), false);
        assertEquals(27 * 8, r.samples().size());
        ExpositionParser.Sample util = find(r, "DCGM_FI_DEV_GPU_UTIL", Map.of("gpu", "2"));
        assertEquals(96, util.value());
        assertEquals("llama-sft-7f9c-worker-0", util.labels().get("pod"));
        assertEquals("team-nlp", util.labels().get("namespace"));
        assertEquals("NVIDIA A100-SXM4-80GB", util.labels().get("modelName"));
        ExpositionParser.Sample xid = find(r, "DCGM_FI_DEV_XID_ERRORS", Map.of("gpu", "5"));
        assertEquals(79, xid.value());
        assertEquals("GPU has fallen off the bus", xid.labels().get("err_msg"));
        assertEquals("", xid.labels().get("pod"), "a GPU no pod holds has empty mapping labels");
    }

    @Test
    void dcgmExportersReadmeFormWithSpacesAfterCommasParses() {
        ExpositionParser.Result r = ExpositionParser.parse(resource("dcgm-exporter-readme.txt"), false);
        assertEquals(3, r.samples().size());
        assertEquals("GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52", r.samples().get(0).labels().get("UUID"));
        assertEquals(9.223372036854775794e18, r.samples().get(2).value());
    }

    @Test
    void escapesSpecialValuesTimestampsAndQuotedNamesAreReadAsPrometheusDoes() {
        String text = "# TYPE a counter\n"
                + "a{path=\"C:\\\\dir\\\\\",msg=\"say \\\"hi\\\"\\nbye\"} +Inf 1712345678901\n"
                + "b -Inf\n"
                + "c NaN\n"
                + "{\"d.with.dots\",x=\"1\"} 2.5e3\n"
                + "e{a=\"1\",} 7\n";
        ExpositionParser.Result r = ExpositionParser.parse(text, false);
        assertEquals("C:\\dir\\", r.samples().get(0).labels().get("path"));
        assertEquals("say \"hi\"\nbye", r.samples().get(0).labels().get("msg"));
        assertEquals(Double.POSITIVE_INFINITY, r.samples().get(0).value());
        assertEquals(1712345678901L, r.samples().get(0).timestampMs());
        assertEquals(Double.NEGATIVE_INFINITY, r.samples().get(1).value());
        assertTrue(Double.isNaN(r.samples().get(2).value()));
        assertEquals("d.with.dots", r.samples().get(3).name());
        assertEquals(2500, r.samples().get(3).value());
        assertEquals(Map.of("a", "1"), r.samples().get(4).labels());
    }

    @Test
    void openMetricsTakesTimestampsInSecondsSkipsExemplarsAndNeedsEof() {
        String om = "# TYPE foo counter\n# UNIT foo seconds\n# HELP foo The foo.\n"
                + "foo_total{a=\"b\"} 17.0 1520879607.789 # {trace_id=\"KOO5S4vxi0o\"} 0.67\n"
                + "foo_created{a=\"b\"} 1520872607.123\n# EOF\n";
        ExpositionParser.Result r = ExpositionParser.parse(om, true);
        assertEquals(2, r.samples().size());
        assertEquals(17.0, r.samples().get(0).value());
        assertEquals(1520879607789L, r.samples().get(0).timestampMs());
        assertEquals("counter", r.types().get("foo"));
        assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("foo 1\n", true));
        assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("foo 1\n# EOF\nbar 2\n", true));
    }

    @Test
    void aMalformedLineFailsTheScrapeNamingTheLine() {
        var e = assertThrows(ExpositionParser.ParseException.class,
                () -> ExpositionParser.parse("ok 1\nbad{a=\"1\" 2\n", false));
        assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
        assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("novalue\n", false));
        assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("x 0x1p3\n", false));
        assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("x{a=\"1\",a=\"2\"} 1\n", false));
        assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("# TYPE x bogus\nx 1\n", false));
    }
}
