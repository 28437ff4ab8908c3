package io.jobmon.contracts.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.problem.Problem;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only validation blames the client; an internal failure is a 500 that tells nothing; an outage a 503. */
class ProblemMappersTest {

    final ProblemMappers mappers = new ProblemMappers(io.jobmon.contracts.i18n.I18n.defaults());

    record Spec(String name, int replicas, List<String> tags, Mode mode) {
    }

    enum Mode {
        NORMAL, DEBUG
    }

    static Problem problem(Response r) {
        return (Problem) r.getEntity();
    }

    @Test
    void anInternalIllegalArgumentIsA500WithoutItsMessage() {
        Response r = mappers.unexpected(new IllegalArgumentException(
                "No enum constant io.jobmon.jobs.job.model.Priority.URGENT"), null, null);
        assertEquals(500, r.getStatus());
        String body = CloudEvents.toJson(problem(r));
        assertFalse(body.contains("io.jobmon") || body.contains("Priority") || body.contains("enum"), body);
        assertEquals("https://jobmon.io/problems/internal-error", problem(r).type());
    }

    @Test
    void aDependencyThatIsDownIsA503WithRetryAfter() {
        Response r = mappers.unexpected(new RuntimeException("pool", new ConnectException("Connection refused")), null, null);
        assertEquals(503, r.getStatus());
        assertEquals("5", r.getHeaderString("Retry-After"));
        assertEquals("https://jobmon.io/problems/dependency-unavailable", problem(r).type());
    }

    @Test
    void aWrongJsonTypeNamesTheFieldAndWhatWasExpectedNeverAClass() {
        for (String[] c : new String[][] {
                {"{\"name\":\"a\",\"replicas\":\"many\"}", "replicas", "a whole number"},
                {"{\"tags\":{\"a\":1}}", "tags", "an array"},
                {"{\"mode\":\"LOUD\"}", "mode", "one of NORMAL, DEBUG"},
                {"[1,2]", null, "an object"}}) {
            Response r;
            try {
                CloudEvents.MAPPER.readValue(c[0], Spec.class);
                throw new AssertionError("parsed " + c[0]);
            } catch (MismatchedInputException e) {
                r = mappers.json(e, null, null);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                r = mappers.json(e, null, null);
            }
            Problem p = problem(r);
            String body = CloudEvents.toJson(p);
            assertEquals(400, r.getStatus(), body);
            assertFalse(body.contains("io.jobmon") || body.contains("java.") || body.contains("Spec"), body);
            assertTrue(p.detail().contains(c[2]), body);
            if (c[1] != null) {
                assertEquals(c[1], p.errors().get(0).field(), body);
            }
        }
    }

    @Test
    void malformedJsonSaysWhere() {
        try {
            CloudEvents.MAPPER.readTree("{\"name\": }");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            Problem p = problem(mappers.json(e, null, null));
            assertTrue(p.detail().contains("not valid JSON at line 1"), p.detail());
            return;
        }
        throw new AssertionError("parsed");
    }
}
