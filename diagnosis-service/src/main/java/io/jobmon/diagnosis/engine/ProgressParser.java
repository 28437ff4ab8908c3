package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses training progress lines: tqdm bars ({@code 4500/10000 [1:02:11<1:15:59, 1.21it/s]},
 * {@code s/it}), Hugging Face Trainer loss dicts, DeepSpeed {@code step=}/{@code global_step=},
 * Megatron {@code iteration 100/ 1000 | ... elapsed time per iteration (ms)}, LLaMA-Factory
 * {@code current_steps}/{@code elapsed_time} records, torchvision/MMEngine {@code [i/n] ... time: data:}
 * and generic {@code step N ... loss} lines. Cheap {@code indexOf} checks keep non-progress lines at
 * a few comparisons. Lines that look like errors ({@code Error}, {@code Exception}, {@code Traceback})
 * are never progress. Stateless and thread-safe.
 */
final class ProgressParser {

    private static final Pattern MEGATRON = Pattern.compile("\\biteration\\s+(\\d+)/\\s*(\\d+)\\s*\\|");
    private static final Pattern MEGATRON_MS = Pattern.compile("elapsed time per iteration \\(ms\\):\\s*([\\d.]+)");
    private static final Pattern LLAMA_FACTORY = Pattern.compile("\"current_steps\":\\s*(\\d+)");
    private static final Pattern LF_TOTAL = Pattern.compile("\"total_steps\":\\s*(\\d+)");
    private static final Pattern LF_ELAPSED = Pattern.compile("\"elapsed_time\":\\s*\"(\\d+:\\d{2}(?::\\d{2})?)\"");
    private static final Pattern DEEPSPEED = Pattern.compile("\\b(?:global_step[=:]\\s*|\\] step=)(\\d+)");
    private static final Pattern EPOCH_ITER = Pattern.compile(
            "Epoch(?:\\(train\\))?:?\\s*\\[(\\d+)\\]\\s*\\[\\s*(\\d+)/(\\d+)\\]");
    private static final Pattern ITER_ONLY = Pattern.compile("\\b(?:Iter\\(train\\)\\s*\\[\\s*|iter: )(\\d+)(?:/(\\d+))?");
    private static final Pattern TIME = Pattern.compile("\\btime: ([\\d.]+)");
    private static final Pattern DATA = Pattern.compile("\\bdata(?:_time)?: ([\\d.]+)");
    /** A rate any printer may use: {@code 3.4 it/s}, {@code 0.85s/iter}, {@code 52ms/step}, {@code 512 img/sec}. */
    private static final Pattern RATE = Pattern.compile(
            "(?i)(\\d{1,9}(?:\\.\\d{1,6})?)\\s?(it/s|s/it|steps?/s|s/steps?|ms/steps?|s/iter|ms/iter|iters?/s|"
                    + "samples?/s(?:ec)?|img/s(?:ec)?|images?/s(?:ec)?|tokens?/s(?:ec)?)\\b");
    /** A step counter: {@code step 1200/5000}, {@code [iter 120]}, {@code Iter #120}, {@code batch: 30}. */
    private static final Pattern STEP_WORD = Pattern.compile(
            "(?i)\\b(?:global[_ ]?step|step|iter(?:ation)?|it|batch)\\s{0,2}[:=#\\[]?\\s{0,2}(\\d{1,12})(?:\\s{0,2}/\\s{0,2}(\\d{1,12}))?");
    /** Keras' bar: {@code 1200/5000 [=====>....] - ETA: 12:01 - loss: 0.53}. */
    private static final Pattern KERAS = Pattern.compile("^\\s{0,8}(\\d{1,12})/(\\d{1,12}) \\[[=>.]{2,80}\\]");
    private static final Pattern GENERIC = Pattern.compile(
            "(?i)\\b(?:global[_ ]?step|step|iter(?:ation)?)\\s*[:=]?\\s*\\[?\\s*(\\d+)\\s*(?:/\\s*(\\d+))?");

    private ProgressParser() {
    }

    /** All progress points of the bundle's logs, in log order. */
    static List<ProgressPoint> parse(List<EvidenceBundle.LogLine> logs) {
        List<ProgressPoint> out = new ArrayList<>();
        Instant carry = null;
        for (int i = 0; i < logs.size(); i++) {
            EvidenceBundle.LogLine l = logs.get(i);
            Instant t = l.time() != null ? l.time() : carry;
            carry = t;
            String line = l.line();
            if (line == null || line.length() < 6) {
                continue;
            }
            int cr = line.indexOf('\r') < 0 ? -1 : line.lastIndexOf('\r', line.length() - 2);
            String seg = cr >= 0 ? line.substring(cr + 1) : line;
            ProgressPoint p = parseLine(seg, t, l.pod() == null ? "" : l.pod(), i);
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    static ProgressPoint parseLine(String s, Instant t, String pod, int index) {
        if (s.contains("Error") || s.contains("Exception") || s.contains("rror:") || s.contains("Traceback")) {
            return null;
        }
        if (s.indexOf(" [") > 0 && (s.contains("it/s") || s.contains("s/it") || s.contains("%|"))) {
            ProgressPoint p = TqdmLine.parse(s, t, pod, index);
            if (p != null) {
                return p;
            }
        }
        if (s.contains("'loss': ") || s.contains("'eval_loss': ")) {
            return point(t, pod, "hf-log", Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    true, true, index);
        }
        if (s.contains("iteration") && s.contains("|")) {
            Matcher m = MEGATRON.matcher(s);
            if (m.find()) {
                Matcher ms = MEGATRON_MS.matcher(s);
                double iter = ms.find() ? Double.parseDouble(ms.group(1)) / 1000.0 : Double.NaN;
                return point(t, pod, "megatron|" + m.group(2), num(m.group(1)), num(m.group(2)), Double.NaN, iter,
                        Double.NaN, Double.NaN, true, false, index);
            }
        }
        if (s.contains("\"current_steps\"")) {
            Matcher m = LLAMA_FACTORY.matcher(s);
            if (m.find()) {
                Matcher tot = LF_TOTAL.matcher(s);
                Matcher el = LF_ELAPSED.matcher(s);
                return point(t, pod, "llamafactory", num(m.group(1)), tot.find() ? num(tot.group(1)) : Double.NaN,
                        el.find() ? clock(el.group(1)) : Double.NaN, Double.NaN, Double.NaN, Double.NaN, true, false, index);
            }
        }
        if (s.contains("step")) {
            Matcher m = DEEPSPEED.matcher(s);
            if (m.find()) {
                return point(t, pod, "deepspeed", num(m.group(1)), Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                        Double.NaN, true, false, index);
            }
        }
        if (s.contains("time: ")) {
            ProgressPoint p = epochIter(s, t, pod, index);
            if (p != null) {
                return p;
            }
        }
        if (s.contains("loss") || s.contains("Loss") || s.contains("LOSS")) {
            Matcher m = GENERIC.matcher(s);
            if (m.find()) {
                double[] rate = s.indexOf('/') >= 0 ? rate(s) : NO_RATE;
                return point(t, pod, "generic", num(m.group(1)), m.group(2) == null ? Double.NaN : num(m.group(2)),
                        Double.NaN, rate[0], Double.NaN, rate[1], true, false, index);
            }
        }
        if (s.indexOf('/') >= 0) {
            return stepAndRate(s, t, pod, index);
        }
        return null;
    }

    /**
     * The generic reader for a printer the engine does not know: a step counter (a step word and a number, or
     * Keras' {@code n/N [===>...]}) together with a rate or an ETA. The rate, when it is per step, gives the
     * iteration time; the real speed always comes from successive (step, time) pairs.
     */
    static ProgressPoint stepAndRate(String s, Instant t, String pod, int index) {
        boolean stepWord = s.contains("step") || s.contains("Step") || s.contains("iter") || s.contains("Iter")
                || s.contains("ITER") || s.contains("batch") || s.contains("Batch") || s.contains("it/s");
        boolean kerasShape = s.indexOf(" [") > 0 && s.indexOf('=') > 0;
        if (!stepWord && !kerasShape) {
            return null;
        }
        Matcher k = KERAS.matcher(s);
        boolean keras = kerasShape && k.find();
        Matcher r = RATE.matcher(s);
        boolean rate = r.find();
        if (!keras && !rate) {
            return null;
        }
        double step;
        double total;
        if (keras) {
            step = num(k.group(1));
            total = num(k.group(2));
        } else {
            Matcher m = STEP_WORD.matcher(s);
            if (!m.find()) {
                return null;
            }
            step = num(m.group(1));
            total = m.group(2) == null ? Double.NaN : num(m.group(2));
        }
        double[] per = rate ? rate(r) : NO_RATE;
        return point(t, pod, keras ? "keras|" + k.group(2) : "step-rate", step, total, Double.NaN, per[0], Double.NaN,
                per[1], true, false, index);
    }

    private static final double[] NO_RATE = {Double.NaN, Double.NaN};

    /** Seconds per step and the printed steps/s of the first rate in the line ({@code NaN} when not per step). */
    private static double[] rate(String s) {
        Matcher r = RATE.matcher(s);
        return r.find() ? rate(r) : NO_RATE;
    }

    private static double[] rate(Matcher r) {
        double v = Double.parseDouble(r.group(1));
        String unit = r.group(2).toLowerCase(Locale.ROOT);
        if (unit.startsWith("ms/")) {
            return new double[] {v / 1000.0, Double.NaN};
        }
        if (unit.startsWith("s/")) {
            return new double[] {v, Double.NaN};
        }
        if (unit.startsWith("it") || unit.startsWith("step")) {
            return new double[] {v > 0 ? 1.0 / v : Double.NaN, v};
        }
        return NO_RATE;
    }

    private static ProgressPoint epochIter(String s, Instant t, String pod, int index) {
        Matcher e = EPOCH_ITER.matcher(s);
        double step;
        double total = Double.NaN;
        String key;
        if (e.find()) {
            total = num(e.group(3));
            step = num(e.group(1)) * total + num(e.group(2));
            key = "epoch-iter|" + e.group(3);
        } else {
            Matcher i = ITER_ONLY.matcher(s);
            if (!i.find()) {
                return null;
            }
            step = num(i.group(1));
            total = i.group(2) == null ? Double.NaN : num(i.group(2));
            key = "iter";
        }
        Matcher tm = TIME.matcher(s);
        Matcher dm = DATA.matcher(s);
        return point(t, pod, key, step, total, Double.NaN, tm.find() ? num(tm.group(1)) : Double.NaN,
                dm.find() ? num(dm.group(1)) : Double.NaN, Double.NaN, true, false, index);
    }

    static ProgressPoint point(Instant t, String pod, String key, double step, double total, double elapsed,
                                       double iter, double data, double printed, boolean training, boolean liveness,
                                       int index) {
        if (t == null && Double.isNaN(elapsed)) {
            return null;
        }
        return new ProgressPoint(t, pod, pod + "|" + key, step, total, elapsed, iter, data, printed, training,
                liveness, index);
    }

    static String label(String prefix) {
        String p = prefix;
        int bar = p.indexOf('|');
        if (bar >= 0) {
            p = p.substring(0, bar);
        }
        int end = p.length();
        while (end > 0 && (Character.isDigit(p.charAt(end - 1)) || p.charAt(end - 1) == '%'
                || Character.isWhitespace(p.charAt(end - 1)))) {
            end--;
        }
        p = p.substring(0, end).strip();
        return p.length() > 40 ? p.substring(0, 40) : p;
    }

    static boolean isTrainingBar(String label, String unit) {
        if (unit != null && !unit.equals("it/s") && !unit.equals("s/it")) {
            return false;
        }
        if (label.isEmpty()) {
            return true;
        }
        String l = label.toLowerCase(Locale.ROOT);
        for (String w : new String[] {"map", "download", "loading", "load ", "token", "eval", "filter", "generat",
            "extract", "convert", "shard", "predict", "valid", "test", "upload", "fetch", "resolv"}) {
            if (l.contains(w)) {
                return false;
            }
        }
        return true;
    }

    static double rate(String value, String unit) {
        if (value == null || value.isEmpty() || value.indexOf('?') >= 0) {
            return Double.NaN;
        }
        double v = Double.parseDouble(value);
        return "s/it".equals(unit) ? (v > 0 ? 1.0 / v : Double.NaN) : v;
    }

    /** {@code MM:SS} or {@code H:MM:SS} to seconds. */
    static double clock(String s) {
        return clock(s, 0, s.length());
    }

    static double clock(String s, int from, int to) {
        double total = 0;
        int part = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == ':') {
                total = total * 60 + part;
                part = 0;
            } else {
                part = part * 10 + (c - '0');
            }
        }
        return total * 60 + part;
    }

    static double num(String s) {
        return s.length() < 16 && s.indexOf('.') < 0 ? Long.parseLong(s) : Double.parseDouble(s);
    }
}
