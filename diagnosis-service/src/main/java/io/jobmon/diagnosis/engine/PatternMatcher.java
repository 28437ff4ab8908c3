package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;

/**
 * Matches the catalogue against every log line, event, pod and container state of a bundle.
 *
 * <p>Linear and bounded: one Aho-Corasick pass over each text finds the keywords of all patterns
 * at once; only patterns whose keyword occurred (and no exclusion did) run their regex, on at most
 * {@value #REGEX_LIMIT} characters. Per text the highest-priority category pattern wins (so a
 * specific "CUDA out of memory" line is not also a generic exception); markers are all kept.
 * Immutable and thread-safe; per-scan state lives in {@link Scan}.
 */
final class PatternMatcher {

    static final int SCAN_LIMIT = 8_192;
    static final int REGEX_LIMIT = 4_096;
    static final int QUOTE_LIMIT = 400;

    private final List<PatternCatalogue.PatternSpec> patterns;
    private final KeywordIndex index;
    private final int[] keywordPattern;
    private final boolean[] keywordExcludes;

    PatternMatcher(PatternCatalogue catalogue) {
        this.patterns = catalogue.patterns();
        List<String> words = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        List<Boolean> excl = new ArrayList<>();
        for (int p = 0; p < patterns.size(); p++) {
            for (String k : patterns.get(p).keywords()) {
                words.add(k);
                owner.add(p);
                excl.add(false);
            }
            for (String k : patterns.get(p).exclude()) {
                words.add(k);
                owner.add(p);
                excl.add(true);
            }
        }
        index = new KeywordIndex(words);
        keywordPattern = owner.stream().mapToInt(Integer::intValue).toArray();
        keywordExcludes = new boolean[excl.size()];
        for (int i = 0; i < keywordExcludes.length; i++) {
            keywordExcludes[i] = excl.get(i);
        }
    }

    /**
     * Scans the bundle.
     *
     * @param progressLines indexes of log lines already parsed as progress lines (machine-formatted bars
     *                      and step/loss records); they are not scanned for failures
     */
    MatchSet scan(EvidenceBundle bundle, JobContext ctx, BitSet progressLines) {
        Scan scan = new Scan(ctx);
        Instant carry = null;
        List<EvidenceBundle.LogLine> logs = bundle.logs();
        for (int i = 0; i < logs.size(); i++) {
            EvidenceBundle.LogLine l = logs.get(i);
            Instant t = l.time() != null ? l.time() : carry;
            carry = t;
            if (l.line() != null && !l.line().isEmpty() && !progressLines.get(i)) {
                scan.match(Evidence.LOG, t, l.pod(), null, l.line(), null, null);
            }
        }
        for (EvidenceBundle.Event e : bundle.events()) {
            String pod = SourceTexts.eventPod(e);
            String node = SourceTexts.eventNode(e);
            scan.match(Evidence.EVENT, e.time(), pod, node != null ? node : ctx.nodeOf(pod), SourceTexts.event(e), null,
                    null);
        }
        for (EvidenceBundle.Pod p : bundle.pods()) {
            scan.match(Evidence.POD, null, p.name(), p.node(), SourceTexts.podMatch(p), SourceTexts.podDisplay(p),
                    SourceTexts.podDisplayZh(p));
            for (EvidenceBundle.Container c : p.containers()) {
                scan.match(Evidence.POD, null, p.name(), p.node(), SourceTexts.containerMatch(c),
                        SourceTexts.containerDisplay(c), SourceTexts.containerDisplayZh(c));
            }
        }
        if (bundle.job() != null) {
            scan.match(Evidence.JOB, null, null, null, SourceTexts.jobMatch(bundle.job()), null, null);
        }
        return scan.result;
    }

    /** Per-scan mutable state: stamps avoid clearing per-pattern flags for every text. */
    private final class Scan implements IntConsumer {
        final JobContext ctx;
        final MatchSet result = new MatchSet();
        final int[] triggeredAt = new int[patterns.size()];
        final int[] excludedAt = new int[patterns.size()];
        final int[] triggered = new int[patterns.size()];
        int count;
        int stamp;
        int order;

        Scan(JobContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void accept(int keyword) {
            int p = keywordPattern[keyword];
            if (keywordExcludes[keyword]) {
                excludedAt[p] = stamp;
            } else if (triggeredAt[p] != stamp) {
                triggeredAt[p] = stamp;
                triggered[count++] = p;
            }
        }

        void match(String source, Instant time, String pod, String node, String text, String display,
                   String displayZh) {
            stamp++;
            order++;
            count = 0;
            index.scan(text, SCAN_LIMIT, this);
            Finding best = null;
            int bestLength = 0;
            CharSequence limited = text.length() > REGEX_LIMIT ? text.subSequence(0, REGEX_LIMIT) : text;
            for (int i = 0; i < count; i++) {
                int p = triggered[i];
                PatternCatalogue.PatternSpec spec = patterns.get(p);
                if (excludedAt[p] == stamp || !spec.appliesTo(source)) {
                    continue;
                }
                Matcher m = spec.regex().matcher(limited);
                if (!m.find()) {
                    continue;
                }
                int length = m.end() - m.start();
                if (!spec.contexts().isEmpty()) {
                    spec = inContext(spec, limited, m.start(), m.end());
                }
                String quoted = quote(spec, m, display != null ? display : text);
                String quotedZh = displayZh != null && "line".equals(spec.quote()) ? displayZh : null;
                String detail = group(m, spec.detail());
                Finding f = new Finding(spec, source, time, pod, nodeOf(ctx, spec, m, source, pod, node, text),
                        quoted, quotedZh, detail, order);
                if (spec.category() == null) {
                    result.add(f);
                } else if (better(spec, length, best, bestLength)) {
                    best = f;
                    bestLength = length;
                }
            }
            if (best != null) {
                result.add(best);
            }
        }
    }

    /**
     * The node a finding concerns: the one the source names (a Node event), a {@code node} group of the pattern
     * (a message that names the node, looked for in later matches too; the matcher is spent afterwards), the node
     * of its pod, the host of a syslog/journal kernel line, or for any
     * other line of no pod the job's only node.
     */
    private static String nodeOf(JobContext ctx, PatternCatalogue.PatternSpec spec, Matcher m, String source,
                                 String pod, String node, String text) {
        if (node != null) {
            return node;
        }
        if (spec.regex().pattern().contains("(?<node>")) {
            String named = group(m, "node");
            while (named == null && m.find()) {
                named = group(m, "node");
            }
            if (named != null) {
                return named;
            }
        }
        if (pod != null) {
            return ctx.nodeOf(pod);
        }
        if (!Evidence.LOG.equals(source)) {
            return null;
        }
        String host = SourceTexts.syslogHost(text);
        return host != null ? host : ctx.singleNode();
    }

    /**
     * Higher priority wins, then higher weight, then the longer match ("Too many open files in system" is ENFILE,
     * not the EMFILE its first words also are).
     */
    private static boolean better(PatternCatalogue.PatternSpec spec, int length, Finding best, int bestLength) {
        if (best == null) {
            return true;
        }
        PatternCatalogue.PatternSpec b = best.pattern();
        if (spec.priority() != b.priority()) {
            return spec.priority() > b.priority();
        }
        if (spec.weight() != b.weight()) {
            return spec.weight() > b.weight();
        }
        return length > bestLength;
    }

    /**
     * The pattern for the context the rest of the line shows (the matched words themselves blanked: "not connected"
     * says nothing about a network), or the pattern itself.
     */
    private static PatternCatalogue.PatternSpec inContext(PatternCatalogue.PatternSpec spec, CharSequence text,
                                                          int start, int end) {
        StringBuilder rest = new StringBuilder(text.length());
        rest.append(text, 0, start).append(' ').append(text, end, text.length());
        String context = TextContext.pick(TextContext.of(rest.toString()), spec.contexts().keySet());
        return context == null ? spec : spec.contexts().get(context);
    }

    private static String quote(PatternCatalogue.PatternSpec spec, Matcher m, String line) {
        String q = switch (spec.quote()) {
            case "line" -> line;
            case "match" -> m.group();
            default -> group(m, spec.quote());
        };
        return SourceTexts.clip(q == null || q.isBlank() ? line : q, QUOTE_LIMIT);
    }

    private static String group(Matcher m, String name) {
        if (name == null) {
            return null;
        }
        try {
            String g = m.group(name);
            return g == null || g.isBlank() ? null : SourceTexts.clip(g, 160);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
