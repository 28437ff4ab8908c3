package io.jobmon.diagnosis.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The generic rules that reason over the reference catalogues: every row of a text kind becomes a pattern matched in
 * the engine's one keyword pass (its forms are the keywords), placed by its kind:
 * <ul>
 *   <li>an errno message counts only where a program reports an errno ({@code [Errno 122] ...}, {@code open: ...},
 *       {@code returned ...}, {@code (os error 28)}), and its category follows the context the rest of the line shows
 *       (a data path, a socket of a collective, a device node: {@link TextContext});</li>
 *   <li>an exception class counts in the position Python and C++ print it ({@code pkg.mod.Class: message},
 *       {@code raise Class(}, {@code <class 'Class'>}), so a framework's OOM class is GPU or host OOM by the device
 *       its message names, a framework's collective error a communication error;</li>
 *   <li>codes and status names (CUDA, cuDNN, cuBLAS, NCCL, HCCL, Ascend, NVML, S3, k8s reasons) count as whole
 *       words; a Kubernetes container reason in a container state ({@code reason=X}), an event reason as an
 *       event's reason; an exit code as a container's {@code exitCode=N}, a signal also as {@code 128 + n};
 *       an Xid as the number after {@code Xid}.</li>
 * </ul>
 * Rows that only inform (HEALTHY, UNKNOWN) make no pattern. Metric kinds ({@code dcgm-field}, Xid codes of
 * {@code DCGM_FI_DEV_XID_ERRORS}) are read by {@link CatalogueSignals}. Stateless.
 */
final class CatalogueRules {

    /** How a kind's rows are matched: sources, precedence and weight of its patterns. */
    private record KindRule(Set<String> sources, int priority, double weight, boolean symptom, CategoryGroup group,
                            boolean errnoPlace, boolean exceptionPlace) {
    }

    private static final Set<String> LOG = Set.of("log");
    private static final Set<String> LOG_EVENT = Set.of("log", "event");
    private static final Set<String> ALL = Set.of("log", "event", "pod");

    private static final Map<String, KindRule> KINDS = Map.ofEntries(
            Map.entry("errno", new KindRule(LOG_EVENT, 65, 0.8, false, null, true, false)),
            Map.entry("python-exception", new KindRule(LOG, 40, 0.75, false, null, false, true)),
            Map.entry("framework-exception", new KindRule(LOG, 74, 0.88, false, null, false, true)),
            Map.entry("cuda-error", new KindRule(LOG, 72, 0.85, false, null, false, false)),
            Map.entry("cudnn-status", new KindRule(LOG, 72, 0.85, false, null, false, false)),
            Map.entry("cublas-status", new KindRule(LOG, 72, 0.85, false, null, false, false)),
            Map.entry("nccl-result", new KindRule(LOG, 73, 0.85, false, null, false, false)),
            Map.entry("nccl-warn", new KindRule(LOG, 77, 0.85, false, null, false, false)),
            Map.entry("hccl-error", new KindRule(LOG, 76, 0.85, false, null, false, false)),
            Map.entry("ascend-error", new KindRule(LOG, 76, 0.85, false, null, false, false)),
            Map.entry("xid", new KindRule(ALL, 96, 0.9, false, null, false, false)),
            Map.entry("dcgm-health", new KindRule(ALL, 80, 0.85, false, null, false, false)),
            Map.entry("nvml-return", new KindRule(ALL, 79, 0.85, false, null, false, false)),
            Map.entry("k8s-container-reason", new KindRule(ALL, 80, 0.85, false, null, false, false)),
            Map.entry("k8s-event-reason", new KindRule(LOG_EVENT, 80, 0.85, false, null, false, false)),
            Map.entry("kubelet-eviction", new KindRule(ALL, 90, 0.9, false, null, false, false)),
            Map.entry("scheduler-message", new KindRule(Set.of("log", "event", "job"), 59, 0.85, false, null, false, false)),
            Map.entry("exit-code", new KindRule(Set.of("pod"), 15, 0.5, true, null, false, false)),
            Map.entry("signal", new KindRule(LOG, 46, 0.6, false, null, false, false)),
            Map.entry("s3-error", new KindRule(LOG, 78, 0.88, false, null, false, false)),
            Map.entry("http-status", new KindRule(LOG, 45, 0.6, false, null, false, false)),
            Map.entry("oom-form", new KindRule(LOG_EVENT, 89, 0.9, false, null, false, false)),
            Map.entry("stall-form", new KindRule(LOG, 70, 0.8, false, CategoryGroup.CRASH, false, false)));

    /** Where a program reports an errno: after {@code [Errno n]}, a colon, {@code returned}, an open parenthesis. */
    private static final String ERRNO_PLACE =
            "(?:^|[\\]:(,=]|\\breturned|\\berror|\\bfailed|\\bwith|\\bErrno ?-?\\d{1,4})\\s{0,3}";
    /** A class name in the position exceptions are printed or raised. */
    private static final String CLASS_AFTER = "(?=:|\\(|'|\"|>|\\)|,|\\s*$|\\s+\\[|\\s+-\\s|\\s+at\\s)";
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][\\w.]*[\\w]");

    /**
     * Categories inferred from behaviour (metrics, progress): a message that names one (a data pipeline that timed
     * out, a stall report) is what ended the job, so it ranks as a crash and is resolved by later progress.
     */
    private static final Set<Category> BEHAVIOUR = Set.of(Category.DATA_LOADING_BOTTLENECK, Category.TRAINING_HANG,
            Category.TRAINING_SLOWDOWN, Category.GPU_THERMAL_THROTTLING);

    private static final int KEYWORD_LENGTH = 16;

    /**
     * A framework's generic crash class (XlaRuntimeError, tf InternalError, Paddle's (Fatal)) wraps the real error of
     * the same line: the codes of the CUDA, NCCL, HCCL, errno... catalogues outrank it.
     */
    private static final int WRAPPER_PRIORITY = 60;

    /**
     * A row marked {@code "role": "symptom"} (a wrapper: "0/8 nodes are available:", reason=Error, FailedScheduling)
     * ranks under every specific row on the same text, an exit code's included.
     */
    private static final int SYMPTOM_PRIORITY = 14;

    /** A row marked {@code "role": "symptom"} weighs no more than the pattern layer's echoes of a failure. */
    private static final double SYMPTOM_WEIGHT = 0.55;

    private static final Map<String, Localized> CONTEXT_NOTES = Map.of(
            "storage", new Localized("here on a storage path", "此处发生在存储路径上"),
            "network", new Localized("here on a network connection", "此处发生在网络连接上"),
            "device", new Localized("here on a device node or driver", "此处发生在设备节点或驱动上"),
            "object-store", new Localized("here on an object store", "此处发生在对象存储上"),
            "python-import", new Localized("here while loading a library", "此处发生在加载库时"),
            "shm", new Localized("here on shared memory (/dev/shm)", "此处发生在共享内存（/dev/shm）上"),
            "gpu", new Localized("here on the GPU / accelerator", "此处发生在 GPU/加速卡上"),
            "host", new Localized("here in host memory", "此处发生在主机内存中"));

    private CatalogueRules() {
    }

    /** The patterns of every row of a text kind (informative rows make none). */
    static List<PatternCatalogue.PatternSpec> patterns(ReferenceCatalogues refs) {
        List<PatternCatalogue.PatternSpec> out = new ArrayList<>();
        for (ReferenceCatalogues.Row row : refs.rows()) {
            KindRule rule = KINDS.get(row.kind());
            if (rule == null || row.informative()) {
                continue;
            }
            String id = "cat:" + row.file() + ":" + row.id();
            switch (row.kind()) {
                // an Xid is chosen by its number: most rows share the driver's form (NVRM: Xid ...)
                case "xid" -> add(out, spec(id, row, rule, Set.of("log", "event", "pod"), List.of("xid"),
                        xidRegex(row.code())));
                case "exit-code" -> add(out, spec(id, row, rule, Set.of("pod"), List.of("exitcode=" + row.code()),
                        "exitCode=" + Pattern.quote(row.code()) + "\\b"));
                case "signal" -> {
                    addForms(out, id, row, rule);
                    if (row.code().matches("\\d{1,2}")) {
                        String exit = String.valueOf(128 + Integer.parseInt(row.code()));
                        add(out, spec(id + "#exit", row, KINDS.get("exit-code"), Set.of("pod"),
                                List.of("exitcode=" + exit), "exitCode=" + exit + "\\b"));
                    }
                }
                case "k8s-container-reason" -> {
                    List<String> ids = identifiers(row.forms(), true);
                    if (!ids.isEmpty()) {
                        add(out, spec(id, row, rule, Set.of("pod", "event"), lower(ids.stream().map(f -> "reason=" + f).toList()),
                                "(?i)reason=" + alternation(ids) + "\\b"));
                    }
                    addPhrases(out, id + "#form", row, rule);
                }
                case "k8s-event-reason" -> {
                    List<String> ids = identifiers(row.forms(), true);
                    if (!ids.isEmpty()) {
                        add(out, spec(id, row, rule, Set.of("event"), lower(ids), "(?i)^" + alternation(ids) + "\\b"));
                    }
                    addPhrases(out, id + "#form", row, rule);
                }
                default -> addForms(out, id, row, rule);
            }
        }
        return out;
    }

    /** All forms of a row, identifiers and phrases, in the places its kind prints them. */
    private static void addForms(List<PatternCatalogue.PatternSpec> out, String id, ReferenceCatalogues.Row row,
                                 KindRule rule) {
        List<String> alts = new ArrayList<>();
        for (String f : row.forms()) {
            alts.add(formRegex(f, rule));
        }
        add(out, spec(id, row, rule, rule.sources(), lower(row.forms()), "(?i)(?:" + String.join("|", alts) + ")"));
    }

    /** Only the forms of a row that are phrases (not a bare reason or code). */
    private static void addPhrases(List<PatternCatalogue.PatternSpec> out, String id, ReferenceCatalogues.Row row,
                                   KindRule rule) {
        List<String> phrases = identifiers(row.forms(), false);
        if (!phrases.isEmpty()) {
            List<String> alts = phrases.stream().map(f -> formRegex(f, rule)).toList();
            add(out, spec(id, row, rule, rule.sources(), lower(phrases), "(?i)(?:" + String.join("|", alts) + ")"));
        }
    }

    /**
     * The regex of one form. The literal comes first and what must (not) precede it is a lookbehind after it, so a
     * search tries one character per position until the literal's first letter matches (a leading alternation or
     * lookbehind would be tried at every position of every line that contains the keyword).
     */
    private static String formRegex(String form, KindRule rule) {
        String q = Pattern.quote(form);
        boolean identifier = IDENTIFIER.matcher(form).matches();
        String after = Character.isLetterOrDigit(form.charAt(form.length() - 1)) ? "(?![\\w])" : "";
        if (identifier && rule.exceptionPlace()) {
            return q + "(?<![A-Za-z0-9_]" + q + ")" + notSource(q) + CLASS_AFTER;
        }
        String before = Character.isLetterOrDigit(form.charAt(0)) ? "(?<![\\w]" + q + ")" : "";
        if (rule.errnoPlace() && !identifier) {
            return q + "(?<=" + ERRNO_PLACE + q + ")" + after;
        }
        return q + before + after;
    }

    /** Not a source line a traceback quotes ({@code raise X(...)}, {@code except X:}): the class was not raised there. */
    private static String notSource(String q) {
        return "(?<!raise " + q + ")(?<!except " + q + ")(?<!except \\(" + q + ")";
    }

    private static String xidRegex(String code) {
        return "(?i)\\bxid\\b(?:[ _-]?(?:error|event|code)s?)?(?: ?\\([^)]{0,60}\\))?\\s{0,3}[:=#]?\\s{0,3}"
                + Pattern.quote(code.trim()) + "\\b";
    }

    /** Kinds whose forms also occur in warnings a program recovers from (a retried request, a logged exception). */
    private static final Set<String> RECOVERABLE_KINDS = Set.of("errno", "python-exception", "framework-exception",
            "cuda-error", "cudnn-status", "cublas-status", "http-status", "s3-error", "signal");
    /** Lines that say the program goes on: a retry or a warning-level record. */
    private static final List<String> GOES_ON = List.of("retrying", "will retry", "warning:", "warning]", "[w ", "[w0",
            "[w1");

    /** Kernel driver lines ({@code NVRM: Xid ..., Copy Engine Exception}) are no program's exception. */
    private static final List<String> KERNEL_LINES = List.of("nvrm: xid");

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static PatternCatalogue.PatternSpec spec(String id, ReferenceCatalogues.Row row, KindRule base,
                                                     Set<String> sources, List<String> keywords, String regex) {
        Pattern compiled = Pattern.compile(regex);
        boolean behaviour = BEHAVIOUR.contains(row.category()) && base.group() == null;
        boolean wrapper = "framework-exception".equals(row.kind()) && row.category() == Category.USER_CODE_ERROR;
        KindRule rule = behaviour || row.symptom() || wrapper
                ? new KindRule(base.sources(), row.symptom() ? Math.min(base.priority(), SYMPTOM_PRIORITY)
                        : wrapper ? WRAPPER_PRIORITY : base.priority(),
                        row.symptom() ? Math.min(base.weight(), SYMPTOM_WEIGHT)
                        : base.weight(), base.symptom(), behaviour ? CategoryGroup.CRASH : base.group(),
                        base.errnoPlace(), base.exceptionPlace())
                : base;
        List<String> goesOn = RECOVERABLE_KINDS.contains(row.kind()) ? GOES_ON : List.of();
        List<String> exclude = rule.exceptionPlace() ? concat(goesOn, KERNEL_LINES) : goesOn;
        Map<String, PatternCatalogue.PatternSpec> contexts = new LinkedHashMap<>();
        row.contexts().forEach((context, category) -> contexts.put(context, new PatternCatalogue.PatternSpec(
                id + "@" + context, category, null, sources, keywords, exclude, compiled, rule.weight(),
                rule.priority(), rule.symptom() || row.symptom(), "line", null, category == row.category() ? row.action() : null, 0,
                rule.group(), row.explanation().append("; ", "；", CONTEXT_NOTES.get(context)), Map.of())));
        return new PatternCatalogue.PatternSpec(id, row.category(), null, sources, keywords, exclude, compiled,
                rule.weight(), rule.priority(), rule.symptom() || row.symptom(), "line", null, row.action(), 0,
                rule.group(), row.explanation(), contexts);
    }

    private static void add(List<PatternCatalogue.PatternSpec> out, PatternCatalogue.PatternSpec spec) {
        out.add(spec);
    }

    /** The forms that are (or, with {@code wanted} false, are not) bare identifiers. */
    private static List<String> identifiers(List<String> forms, boolean wanted) {
        return forms.stream().filter(f -> IDENTIFIER.matcher(f).matches() == wanted).toList();
    }

    private static String alternation(List<String> forms) {
        return "(?:" + String.join("|", forms.stream().map(Pattern::quote).toList()) + ")";
    }

    /**
     * The keywords of forms: lower case, at most {@value #KEYWORD_LENGTH} characters (the regex checks the rest), so
     * hundreds of long messages keep the keyword automaton small.
     */
    private static List<String> lower(List<String> forms) {
        return forms.stream().map(f -> f.toLowerCase(Locale.ROOT))
                .map(f -> f.length() > KEYWORD_LENGTH ? f.substring(0, KEYWORD_LENGTH) : f).distinct().toList();
    }
}
