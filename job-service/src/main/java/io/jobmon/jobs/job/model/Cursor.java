package io.jobmon.jobs.job.model;

import io.jobmon.contracts.api.Cursors;
import java.util.List;

/**
 * The position of a keyset page of jobs: the sort it belongs to, the last row's sort value and id, and the
 * reference time live durations were computed at (so the next page sorts waiting jobs exactly as this one did).
 * On the wire it is a {@link Cursors} token; one that does not decode, or belongs to another sort, is a 400.
 */
public record Cursor(String sort, String value, String id, long refMillis) {

    public String encode() {
        return Cursors.encode(sort, value, id, Long.toString(refMillis));
    }

    /** @throws io.jobmon.contracts.problem.ApiException 400 naming {@code cursor} unless a cursor of {@code expectedSort} */
    public static Cursor decode(String token, String expectedSort) {
        List<String> p = Cursors.decode(token, 4);
        if (p == null || !p.get(0).equals(expectedSort) || p.get(2).isEmpty()) {
            throw Cursors.invalid();
        }
        try {
            return new Cursor(p.get(0), p.get(1), p.get(2), Long.parseLong(p.get(3)));
        } catch (NumberFormatException e) {
            throw Cursors.invalid();
        }
    }
}
