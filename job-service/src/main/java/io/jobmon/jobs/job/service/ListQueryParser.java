package io.jobmon.jobs.job.service;

import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.model.Cursor;
import io.jobmon.jobs.job.model.ListQuery;
import io.jobmon.jobs.job.model.ListQuery.Scope;
import io.jobmon.jobs.job.model.ListQuery.Sort;
import io.jobmon.jobs.job.model.ListQuery.SortField;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns list query parameters into a {@link ListQuery}, naming every invalid parameter in one 400. Filter values
 * must look like the values they filter (a name filter like a job name, an owner like a user name): anything
 * else, such as quotes or SQL comments, cannot match a job and is refused rather than searched for.
 */
public final class ListQueryParser {

    static final Pattern NAME_FILTER = Pattern.compile("[\\p{L}\\p{N} ._-]{1,128}");
    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,127}");

    /** Raw query parameters as they arrive. */
    public record Params(String scope, String name, List<String> status, List<String> tag, String project,
            String cluster, String region, String owner, String submittedFrom, String submittedTo, String sort,
            String limit, String cursor) {
    }

    private ListQueryParser() {
    }

    public static ListQuery parse(Params p, TagRules tagRules) {
        List<FieldError> errors = new ArrayList<>();
        Scope scope = enumOf(Scope.class, p.scope(), Scope.mine, "scope", errors);
        String name = blankToNull(p.name());
        if (name != null && !NAME_FILTER.matcher(name).matches()) {
            errors.add(FieldError.of("name", "list.name-filter"));
        }
        List<JobStatus> statuses = new ArrayList<>();
        for (String s : nonBlank(p.status())) {
            for (String part : s.split(",")) {
                JobStatus st = enumOf(JobStatus.class, part.trim(), null, "status", errors);
                if (st != null) {
                    statuses.add(st);
                }
            }
        }
        List<String> tags = nonBlank(p.tag());
        tagRules.check(tags, "tag", errors);
        String project = identifier(p.project(), "project", errors);
        String cluster = identifier(p.cluster(), "cluster", errors);
        String region = identifier(p.region(), "region", errors);
        String owner = identifier(p.owner(), "owner", errors);
        Instant from = instant(p.submittedFrom(), "submittedFrom", errors);
        Instant to = instant(p.submittedTo(), "submittedTo", errors);
        Sort sort = sort(p.sort(), errors);
        int limit = limit(p.limit(), errors);
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        Cursor cursor = blankToNull(p.cursor()) == null ? null : Cursor.decode(p.cursor(), sort.key());
        return new ListQuery(scope, name, List.copyOf(statuses), tags, project, cluster, region, owner, from, to,
                sort, limit, cursor);
    }

    static Sort sort(String raw, List<FieldError> errors) {
        if (blankToNull(raw) == null) {
            return new Sort(SortField.submittedAt, true);
        }
        String[] parts = raw.split(":", 2);
        SortField field = enumOf(SortField.class, parts[0], null, "sort", errors);
        String dir = parts.length > 1 ? parts[1] : "desc";
        if (!dir.equals("asc") && !dir.equals("desc")) {
            errors.add(FieldError.of("sort", "list.sort-direction"));
        }
        return field == null ? new Sort(SortField.submittedAt, true) : new Sort(field, !dir.equals("asc"));
    }

    public static int limit(String raw, List<FieldError> errors) {
        return Limits.parse(raw, errors);
    }

    public static <E extends Enum<E>> E enumOf(Class<E> type, String raw, E fallback, String field, List<FieldError> errors) {
        if (blankToNull(raw) == null) {
            return fallback;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(raw.trim())) {
                return e;
            }
        }
        String allowed = String.join(", ", Arrays.stream(type.getEnumConstants()).map(Enum::name).toList());
        errors.add(FieldError.of(field, "field.one-of", allowed));
        return fallback;
    }

    private static String identifier(String raw, String field, List<FieldError> errors) {
        String v = blankToNull(raw);
        if (v != null && !IDENTIFIER.matcher(v).matches()) {
            errors.add(FieldError.of(field, "list.identifier"));
            return null;
        }
        return v;
    }

    private static Instant instant(String raw, String field, List<FieldError> errors) {
        String v = blankToNull(raw);
        if (v == null) {
            return null;
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            errors.add(FieldError.of(field, "field.time"));
            return null;
        }
    }

    private static List<String> nonBlank(List<String> values) {
        return values == null ? List.of() : values.stream().filter(v -> v != null && !v.isBlank()).toList();
    }

    static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v;
    }
}
