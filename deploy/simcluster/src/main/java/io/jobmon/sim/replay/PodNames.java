package io.jobmon.sim.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaying a bundle again in the same namespace would create pods whose names are taken: those pods are renamed
 * {@code <name>-<suffix of the job id>} in every place the bundle names them (pods, event objects and messages, log
 * lines' pod, metric series' {@code pod} label), so the replay stays one consistent job.
 */
final class PodNames {

    private PodNames() {
    }

    /** The bundle with taken pod names replaced, or the bundle itself when none is taken. */
    static JsonNode unique(JsonNode bundle, Predicate<String> taken, String jobId) {
        Map<String, String> renames = new LinkedHashMap<>();
        String suffix = jobId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        suffix = suffix.substring(Math.max(0, suffix.length() - 6));
        for (JsonNode p : bundle.path("pods")) {
            String name = p.path("name").asText();
            if (!name.isEmpty() && taken.test(name)) {
                renames.put(name, name + "-" + suffix);
            }
        }
        if (renames.isEmpty()) {
            return bundle;
        }
        ObjectNode b = bundle.deepCopy();
        for (JsonNode p : b.path("pods")) {
            rename((ObjectNode) p, "name", renames);
        }
        for (JsonNode e : b.path("events")) {
            ObjectNode event = (ObjectNode) e;
            String object = event.path("object").asText("");
            if (object.startsWith("Pod/") && renames.containsKey(object.substring(4))) {
                event.put("object", "Pod/" + renames.get(object.substring(4)));
            }
            if (event.hasNonNull("message")) {
                event.put("message", inText(event.get("message").asText(), renames));
            }
        }
        for (JsonNode l : b.path("logs")) {
            rename((ObjectNode) l, "pod", renames);
        }
        for (JsonNode m : b.path("metrics")) {
            if (m.path("labels").isObject()) {
                rename((ObjectNode) m.get("labels"), "pod", renames);
            }
        }
        return b;
    }

    private static void rename(ObjectNode o, String field, Map<String, String> renames) {
        String v = o.path(field).asText(null);
        if (v != null && renames.containsKey(v)) {
            o.put(field, renames.get(v));
        }
    }

    /** Whole-word occurrences of the old names in a message (a name is never part of a longer name). */
    static String inText(String text, Map<String, String> renames) {
        String out = text;
        for (Map.Entry<String, String> r : renames.entrySet()) {
            Matcher m = Pattern.compile("(?<![A-Za-z0-9.-])" + Pattern.quote(r.getKey()) + "(?![A-Za-z0-9-])").matcher(out);
            out = m.replaceAll(Matcher.quoteReplacement(r.getValue()));
        }
        return out;
    }
}
