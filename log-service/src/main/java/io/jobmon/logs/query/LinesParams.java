package io.jobmon.logs.query;

import io.jobmon.logs.config.LogsConfig;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** The query parameters of a page of lines, a job's or a node's: time range, search, tail, paging both ways. */
public class LinesParams {

    @Parameter(description = "RFC 3339, inclusive")
    @QueryParam("from")
    public String from;

    @Parameter(description = "RFC 3339, exclusive")
    @QueryParam("to")
    public String to;

    @Parameter(description = "keyword (plain text)")
    @QueryParam("q")
    public String q;

    @Parameter(description = "true: q and regex ignore case")
    @QueryParam("ignoreCase")
    public String ignoreCase;

    @Parameter(description = "RE2 regular expression")
    @QueryParam("regex")
    public String regex;

    @Parameter(description = "the last N lines (1..10000), in time order")
    @QueryParam("tail")
    public String tail;

    @Parameter(description = "1..500, default 50")
    @QueryParam("limit")
    public String limit;

    @Parameter(description = "a line's cursor or nextCursor: continue after (forward) or before (backward) it")
    @QueryParam("cursor")
    public String cursor;

    @Parameter(description = "forward (default, oldest first) or backward (newest first)")
    @QueryParam("direction")
    public String direction;

    /** The query of these parameters for lines of {@code type}, {@code pod} and {@code container}. */
    public LogQuery query(String type, String pod, String container, LogsConfig config) {
        return LogQuery.of(type, pod, container, from, to, q, ignoreCase, regex, tail, limit, cursor, direction, config);
    }
}
