package io.jobmon.chart;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a Grafana query of one) selects. Strings, label matchers, ranges,
 * grouping clauses and Grafana variables are removed first; what remains that is not a function call, a keyword
 * or part of a number or duration is a metric name.
 */
final class PromqlNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^{}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^\\[\\]]*]");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    /** Grafana's label_values(metric_or_selector, label) and label_values(label). */
    private static final Pattern LABEL_VALUES_2 = Pattern.compile("label_values\\s*\\(([^,()]+(?:\\{[^}]*})?)\\s*,[^)]*\\)");
    private static final Pattern LABEL_VALUES_1 = Pattern.compile("label_values\\s*\\([^,()]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])([a-zA-Z_:][\\w:]*)");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "bool", "offset", "inf", "nan", "Inf", "NaN", "start", "end");

    static Set<String> of(String query) {
        String q = LABEL_VALUES_2.matcher(query).replaceAll("$1");
        q = LABEL_VALUES_1.matcher(q).replaceAll(" ");
        q = STRING.matcher(q).replaceAll(" ");
        q = VARIABLE.matcher(q).replaceAll(" ");
        String before;
        do {
            before = q;
            q = MATCHERS.matcher(q).replaceAll(" ");
        } while (!q.equals(before));
        q = RANGE.matcher(q).replaceAll(" ");
        q = GROUPING.matcher(q).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(q);
        while (m.find()) {
            String name = m.group(1);
            int next = m.end();
            while (next < q.length() && Character.isWhitespace(q.charAt(next))) {
                next++;
            }
            boolean call = next < q.length() && q.charAt(next) == '(';
            if (!call && !KEYWORDS.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private PromqlNames() {
    }
}
