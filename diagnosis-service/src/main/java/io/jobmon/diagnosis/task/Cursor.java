package io.jobmon.diagnosis.task;

import io.jobmon.contracts.api.Cursors;
import java.time.Instant;
import java.util.List;

/** The position in a job's history: the (created at, id) of the last diagnosis of the previous page. */
public record Cursor(Instant createdAt, String id) {

    public String encode() {
        return Cursors.encode(createdAt.toString(), id);
    }

    /** @return null for no cursor; @throws io.jobmon.contracts.problem.ApiException 400 unless one of ours */
    public static Cursor decode(String cursor) {
        List<String> p = Cursors.decode(cursor, 2);
        if (p == null) {
            return null;
        }
        try {
            return new Cursor(Instant.parse(p.get(0)), p.get(1));
        } catch (RuntimeException e) {
            throw Cursors.invalid();
        }
    }
}
