package io.jobmon.jobs.job.service;

import io.jobmon.contracts.problem.Problem.FieldError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/** Tag validation (charset, length, count), configured by {@code jobmon.jobs.tags.*}. */
public final class TagRules {

    private final int maxCount;
    private final int maxLength;
    private final Pattern pattern;

    public TagRules(int maxCount, int maxLength, String pattern) {
        this.maxCount = maxCount;
        this.maxLength = maxLength;
        this.pattern = Pattern.compile(pattern);
    }

    /** Adds one error per bad tag ({@code field[i]}) and one for too many. */
    public void check(List<String> tags, String field, List<FieldError> errors) {
        if (tags == null) {
            return;
        }
        if (tags.size() > maxCount) {
            errors.add(FieldError.of(field, "tag.max-count", maxCount));
        }
        for (int i = 0; i < tags.size(); i++) {
            String t = tags.get(i);
            if (t == null || t.isBlank()) {
                errors.add(FieldError.of(field + "[" + i + "]", "tag.empty"));
            } else if (t.length() > maxLength) {
                errors.add(FieldError.of(field + "[" + i + "]", "field.max-length", maxLength));
            } else if (!pattern.matcher(t).matches()) {
                errors.add(FieldError.of(field + "[" + i + "]", "tag.pattern"));
            }
        }
    }

    /** The tags without duplicates, in the given order. */
    public static List<String> normalise(List<String> tags) {
        return tags == null ? List.of() : new ArrayList<>(new LinkedHashSet<>(tags));
    }
}
