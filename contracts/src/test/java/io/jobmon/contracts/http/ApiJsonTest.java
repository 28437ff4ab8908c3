package io.jobmon.contracts.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.problem.JsonErrors;
import io.jobmon.contracts.problem.Problem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The API refuses what it would otherwise coerce, refuses NUL characters, and writes times to the millisecond. */
class ApiJsonTest {

    final ObjectMapper mapper = ApiJson.configure(new ObjectMapper().registerModule(new JavaTimeModule()));
    final I18n i18n = I18n.defaults();

    record Spec(String name, Integer replicas, Boolean supportsRestart, Mode mode, List<String> tags,
            Map<String, String> env, int maxRetries) {
    }

    enum Mode {
        NORMAL, DEBUG
    }

    record Times(Instant at) {
    }

    Problem refused(String json) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> mapper.readValue(json, Spec.class),
                json);
        return JsonErrors.badRequest(e).toProblem().localize(i18n, Locales.EN);
    }

    @Test
    void wrongJsonTypesAreRefusedNotCoerced() {
        String[][] cases = {
                {"{\"name\": 123, \"maxRetries\": 0}", "name", "expected a string"},
                {"{\"name\": true, \"maxRetries\": 0}", "name", "expected a string"},
                {"{\"supportsRestart\": -1, \"maxRetries\": 0}", "supportsRestart", "expected true or false"},
                {"{\"supportsRestart\": \"true\", \"maxRetries\": 0}", "supportsRestart", "expected true or false"},
                {"{\"replicas\": \"3\", \"maxRetries\": 0}", "replicas", "expected a whole number"},
                {"{\"replicas\": 1.5, \"maxRetries\": 0}", "replicas", "expected a whole number"},
                {"{\"mode\": 1, \"maxRetries\": 0}", "mode", "expected one of NORMAL, DEBUG"},
                {"{\"tags\": [1, 2], \"maxRetries\": 0}", "tags[0]", "expected a string"},
                {"{\"env\": {\"A\": 1}, \"maxRetries\": 0}", "env.A", "expected a string"},
                {"{\"maxRetries\": null}", "maxRetries", "expected a whole number"}};
        for (String[] c : cases) {
            Problem p = refused(c[0]);
            assertEquals(400, p.status(), c[0]);
            assertEquals(c[1], p.errors().get(0).field(), c[0]);
            assertEquals(c[2], p.errors().get(0).message(), c[0]);
        }
    }

    @Test
    void aNulCharacterInAStringOrAKeyIsA400NamingTheField() {
        Problem p = refused("{\"name\": \"a\\u0000b\", \"maxRetries\": 0}");
        assertEquals("name", p.errors().get(0).field());
        assertEquals("field.nul", p.errors().get(0).code());
        assertEquals("tags[1]", refused("{\"tags\": [\"a\", \"\\u0000\"], \"maxRetries\": 0}").errors().get(0).field());
        assertEquals("field.nul", refused("{\"env\": {\"A\\u0000\": \"x\"}, \"maxRetries\": 0}").errors().get(0).code());
    }

    @Test
    void validInputStillReads() throws Exception {
        Spec s = mapper.readValue("{\"name\":\"训练\",\"replicas\":2,\"supportsRestart\":true,\"mode\":\"DEBUG\","
                + "\"tags\":[\"a\"],\"env\":{\"A\":\"1\"},\"maxRetries\":3}", Spec.class);
        assertEquals("训练", s.name());
        assertEquals(Mode.DEBUG, s.mode());
        assertEquals(Instant.parse("2026-01-31T08:00:00Z"),
                mapper.readValue("{\"at\":\"2026-01-31T08:00:00Z\"}", Times.class).at());
    }

    @Test
    void timesAreWrittenInUtcToTheMillisecond() throws Exception {
        assertEquals("{\"at\":\"2026-01-31T08:00:00.000Z\"}",
                mapper.writeValueAsString(new Times(Instant.parse("2026-01-31T08:00:00Z"))));
        assertEquals("{\"at\":\"2026-01-31T08:00:00.123Z\"}",
                mapper.writeValueAsString(new Times(Instant.parse("2026-01-31T08:00:00.123456789Z"))));
    }
}
