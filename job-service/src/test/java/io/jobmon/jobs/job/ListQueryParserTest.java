package io.jobmon.jobs.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.Cursor;
import io.jobmon.jobs.job.model.ListQuery;
import io.jobmon.jobs.job.service.ListQueryParser;
import io.jobmon.jobs.job.service.ListQueryParser.Params;
import io.jobmon.jobs.job.service.TagRules;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListQueryParserTest {

    private static final TagRules TAGS = new TagRules(3, 8, "[\\p{L}\\p{N}][\\p{L}\\p{N}_.-]*");

    static Params params(String scope, String name, List<String> status, String sort, String limit, String cursor) {
        return new Params(scope, name, status, List.of(), null, null, null, null, null, null, sort, limit, cursor);
    }

    @Test
    void defaultsAreMineNewestFirstFifty() {
        ListQuery q = ListQueryParser.parse(params(null, null, null, null, null, null), TAGS);
        assertEquals(ListQuery.Scope.mine, q.scope());
        assertEquals("submittedAt:desc", q.sort().key());
        assertEquals(50, q.limit());
    }

    @Test
    void repeatedAndCommaSeparatedStatusesAreBothAccepted() {
        ListQuery q = ListQueryParser.parse(params("all", "bert", List.of("RUNNING,FAILED", "QUEUED"), "name:asc",
                "10", null), TAGS);
        assertEquals(List.of(JobStatus.RUNNING, JobStatus.FAILED, JobStatus.QUEUED), q.statuses());
        assertEquals("name:asc", q.sort().key());
    }

    @Test
    void everyBadParameterIsNamed() {
        ApiException e = assertThrows(ApiException.class, () -> ListQueryParser.parse(new Params("everything",
                "x' OR 1=1 --", List.of("DONE"), List.of("bad tag"), null, null, null, "bob;drop", "yesterday", null,
                "size:up", "5000", null), TAGS));
        List<String> fields = e.toProblem().errors().stream().map(f -> f.field()).toList();
        assertTrue(fields.containsAll(List.of("scope", "name", "status", "tag[0]", "owner", "submittedFrom", "sort",
                "limit")), fields.toString());
    }

    @Test
    void aCursorRoundTripsAndAMalformedOrForeignOneIs400() {
        Cursor c = new Cursor("submittedAt:desc", "2026-07-06T09:30:00Z", "j-1", 42);
        assertEquals(c, Cursor.decode(c.encode(), "submittedAt:desc"));
        assertThrows(ApiException.class, () -> Cursor.decode("not-a-cursor!!", "submittedAt:desc"));
        assertThrows(ApiException.class, () -> Cursor.decode("eyJ4IjoxfQ", "submittedAt:desc"));
        ApiException foreign = assertThrows(ApiException.class, () -> Cursor.decode(c.encode(), "name:asc"));
        assertEquals(400, foreign.status());
    }

    @Test
    void tagRulesCheckCountLengthAndCharset() {
        List<io.jobmon.contracts.problem.Problem.FieldError> errors = new java.util.ArrayList<>();
        TAGS.check(List.of("ok", "toolongtag", "bad!", "fine", ""), "tags", errors);
        List<String> fields = errors.stream().map(f -> f.field()).toList();
        assertEquals(List.of("tags", "tags[1]", "tags[2]", "tags[4]"), fields);
        assertEquals(List.of("a", "b"), TagRules.normalise(List.of("a", "b", "a")));
    }
}
