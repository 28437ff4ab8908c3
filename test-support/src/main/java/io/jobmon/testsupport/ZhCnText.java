package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The check that a zh-CN answer speaks Chinese: walks a JSON answer (a problem, a page, a diagnosis...) and fails on
 * a run of ASCII letters in a text field that is neither a code, a name, a unit nor quoted — an English word or
 * sentence left in a Chinese answer.
 *
 * <p>Fields: a field that carries a machine-readable value or somebody else's words is not read as text — ids and
 * codes ({@code id}, {@code *Id}, {@code type}, {@code *Code}, {@code status}, {@code category}...), names ({@code
 * name}, {@code owner}, {@code node}, {@code pod}, {@code metric}...), the user's own words ({@code comment},
 * {@code hint}, a job's {@code spec}, {@code labels}), log lines, and the cluster's words: Kubernetes' {@code message}
 * beside a Kubernetes {@code reason}, a quoted log or event line of a diagnosis ({@code source} {@code log} /
 * {@code event}). The names these fields carry are allowed in the other fields' texts of the same answer (a pod
 * named in a message). Every other string is text.
 *
 * <p>Tokens: in a text, a run of letters, digits and {@code _ - . / : @ = + # *} is allowed when it has a digit or
 * one of those signs (an id, a path, a version, {@code nvidia.com/gpu}), is upper case ({@code DCGM_FI_DEV_XID_ERRORS},
 * {@code RUNNING}), has a capital inside ({@code OOMKilled}, {@code supportsRestart}, {@code NVLink}), is a unit
 * ({@code ms}, {@code MiB}) or on the allow-list ({@code Xid}); quoted text ({@code '...'}, {@code "..."},
 * {@code “...”}, {@code 「...」}) is the cluster's or the user's and is skipped. Anything else — {@code the},
 * {@code Bad}, {@code restart} — fails the check, naming the field and the word.
 */
public final class ZhCnText {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"|“[^”]*”|‘[^’]*’|「[^」]*」|『[^』]*』|`[^`]*`");
    private static final String WORD_CHARS = "[A-Za-z0-9_.\\-/:@=+#*~%\\[\\]]*";
    private static final Pattern TOKEN = Pattern.compile(WORD_CHARS + "[A-Za-z]" + WORD_CHARS);
    private static final Pattern IDENTIFIER = Pattern.compile(".*([0-9_/:@=+#*~]|[A-Za-z][.\\-\\[][A-Za-z0-9]).*");
    private static final Pattern UPPER = Pattern.compile("[A-Z]+");
    private static final Pattern INNER_CAPITAL = Pattern.compile(".[a-z]*[A-Z].*");

    /**
     * Words that stay as they are in a Chinese text: technical names, Kubernetes' kinds, the values and parameter
     * names of the API a text tells the reader to use.
     */
    public static final Set<String> ALLOWED = Set.of("Xid", "PCIe", "NVLink", "InfiniBand", "Ascend", "Kubernetes",
            "Kafka", "PostgreSQL", "Prometheus", "jobmon", "kubelet", "tqdm", "dcgm", "exporter", "cgroup", "errno",
            "cuDNN", "cuBLAS", "Python", "PyTorch", "TensorFlow", "DeepSpeed", "Megatron", "Fluent", "Bit",
            "python", "pip", "conda", "torch", "torchrun",
            "jax", "jaxlib", "numpy", "Pod",
            "Secret", "ConfigMap", "PersistentVolumeClaim", "Job", "Node", "Normal", "Warning", "Bearer", "Debug",
            "snappy", "shell", "true", "false", "asc", "desc", "cursor", "tail", "limit", "from", "to", "Gi", "Mi");
    /** Units: time, size, power, frequency. */
    public static final Set<String> UNITS = Set.of("ns", "us", "ms", "s", "min", "h", "d", "B", "KB", "MB", "GB", "TB",
            "KiB", "MiB", "GiB", "TiB", "W", "kW", "Hz", "kHz", "MHz", "GHz", "C", "bps", "Gbps");
    /** Fields whose value is an id, a code, a name or not jobmon's words: never read as text. */
    public static final Set<String> NOT_TEXT = Set.of("id", "ids", "type", "code", "status", "subState", "kind",
            "outcome", "verdict", "category", "related", "action", "trigger", "reason", "source", "stream", "phase",
            "state", "visibility", "priority", "cause", "unit", "name", "owner", "user", "users", "author", "tenant",
            "project", "projects", "cluster", "clusters", "region", "queue", "queues", "node", "nodes", "pod",
            "container", "namespace", "image", "tag", "tags", "field", "instance", "requestId", "cursor", "nextCursor",
            "metric", "metrics", "series", "labels", "annotations", "spec", "env", "command", "args", "debugCommand",
            "comment", "hint", "line", "lines", "query", "q", "keyword", "keywords", "path", "url", "href", "gpu",
            "missingSources", "roles", "groups", "scope", "sort", "from", "to", "time", "window", "uuid", "UUID",
            "level", "format", "schema", "version", "key", "value", "labelKey", "resolution", "step", "aggregation");
    /** Reasons jobmon writes: the message beside them is jobmon's (checked), beside any other reason Kubernetes'. */
    public static final Set<String> JOBMON_REASONS = Set.of("Submitted", "StoppedByUser", "Stopped",
            "TerminatedByFaultHandling", "Restarting");

    private final Set<String> allowed = new HashSet<>();
    private final Set<String> notText = new HashSet<>(NOT_TEXT);

    private ZhCnText() {
    }

    /** The default rules. */
    public static ZhCnText rules() {
        return new ZhCnText();
    }

    /** Also allows these words (e.g. a user name a text quotes). */
    public ZhCnText allow(String... words) {
        allowed.addAll(List.of(words));
        return this;
    }

    /** Also skips these fields (another machine-readable field of one answer). */
    public ZhCnText notText(String... fields) {
        notText.addAll(List.of(fields));
        return this;
    }

    /** Fails when {@code json}, a zh-CN answer, has an English word in a text field. */
    public static void assertChinese(String json) {
        rules().check(json);
    }

    /** Fails when {@code json} has an English word in a text field under these rules. */
    public void check(String json) {
        List<String> found = violations(json);
        if (!found.isEmpty()) {
            fail("English text in a zh-CN answer:\n  " + String.join("\n  ", found) + "\nin " + json);
        }
    }

    /** Every English word in a text field, as {@code path: 'word' in "text"}; empty when the answer is Chinese. */
    public List<String> violations(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not a JSON answer: " + json, e);
        }
        Set<String> names = new HashSet<>(allowed);
        collectNames(root, false, names);
        List<String> out = new ArrayList<>();
        walk(root, "$", names, out);
        return out;
    }

    private void collectNames(JsonNode n, boolean name, Set<String> names) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                collectNames(e.getValue(), name || skipped(e.getKey(), n), names);
            }
        } else if (n.isArray()) {
            n.forEach(x -> collectNames(x, name, names));
        } else if (name && n.isTextual()) {
            for (String w : n.asText().split("[\\s,;()\\[\\]]+")) {
                if (!w.isEmpty()) {
                    names.add(w);
                }
            }
        }
    }

    private void walk(JsonNode n, String path, Set<String> names, List<String> out) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (!skipped(e.getKey(), n)) {
                    walk(e.getValue(), path + "." + e.getKey(), names, out);
                }
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                walk(n.get(i), path + "[" + i + "]", names, out);
            }
        } else if (n.isTextual()) {
            for (String word : english(n.asText(), names)) {
                out.add(path + ": '" + word + "' in \"" + n.asText() + "\"");
            }
        }
    }

    /** Whether a field of {@code object} is not text: by its name, or the cluster's words by its neighbours. */
    private boolean skipped(String field, JsonNode object) {
        if (notText.contains(field) || field.endsWith("Id") || field.endsWith("Ids") || field.endsWith("Code")
                || field.endsWith("Name") || field.endsWith("At") || field.endsWith("Url")) {
            return true;
        }
        if (field.equals("message")) {
            JsonNode reason = object.get("reason");
            JsonNode type = object.get("type");
            return reason != null && reason.isTextual() && !JOBMON_REASONS.contains(reason.asText())
                    || type != null && ("Normal".equals(type.asText()) || "Warning".equals(type.asText()));
        }
        if (field.equals("text")) {
            JsonNode source = object.get("source");
            return source != null && ("log".equals(source.asText()) || "event".equals(source.asText()));
        }
        return false;
    }

    /** The English words of one text. */
    static List<String> english(String text, Set<String> names) {
        String unquoted = QUOTED.matcher(text).replaceAll(" ");
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(unquoted);
        while (m.find()) {
            String token = m.group().replaceAll("^[.\\-:=+#*~\\[]+|[.\\-:/=+#*~%\\]]+$", "");
            if (!token.isEmpty() && !allowedToken(token, names)) {
                out.add(token);
            }
        }
        return out;
    }

    private static boolean allowedToken(String token, Set<String> names) {
        return IDENTIFIER.matcher(token).matches() || UPPER.matcher(token).matches()
                || INNER_CAPITAL.matcher(token).matches() || ALLOWED.contains(token) || UNITS.contains(token)
                || names.contains(token) || !token.chars().anyMatch(Character::isLetter);
    }
}
