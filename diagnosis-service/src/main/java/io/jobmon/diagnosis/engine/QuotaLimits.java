package io.jobmon.diagnosis.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the ResourceQuota admission message ({@code exceeded quota: q, requested: r=n, used: r=u, limited: r=l},
 * as the quota admission plugin writes it and the Job/ReplicaSet controllers quote it in {@code FailedCreate}) and
 * tells whether the request alone is above the limit: then waiting for other jobs to finish can never help.
 */
final class QuotaLimits {

    private static final Pattern SECTIONS = Pattern.compile(
            "requested: (?<req>[^ ]{1,2000}), used: (?<used>[^ ]{1,2000}), limited: (?<lim>[^ ]{1,2000})");
    private static final Pattern QUANTITY = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$");

    /** A resource whose request exceeds the limit: name, requested and limited quantities as written. */
    record Excess(String resource, String requested, String limited) {
    }

    private QuotaLimits() {
    }

    /** The first resource requested above its limit, or {@code null}. */
    static Excess aboveLimit(String message) {
        Matcher m = SECTIONS.matcher(message);
        if (!m.find()) {
            return null;
        }
        Map<String, String> requested = pairs(m.group("req"));
        Map<String, String> limited = pairs(stripTrailing(m.group("lim")));
        for (Map.Entry<String, String> r : requested.entrySet()) {
            String l = limited.get(r.getKey());
            double rv = quantity(r.getValue());
            double lv = l == null ? Double.NaN : quantity(l);
            if (!Double.isNaN(rv) && !Double.isNaN(lv) && rv > lv) {
                return new Excess(r.getKey(), r.getValue(), l);
            }
        }
        return null;
    }

    private static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && ",.;\"'".indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(0, end);
    }

    private static Map<String, String> pairs(String section) {
        Map<String, String> out = new HashMap<>();
        for (String part : section.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
        }
        return out;
    }

    /** A Kubernetes quantity ({@code 8}, {@code 800m}, {@code 1Gi}, {@code 2G}) as a number, NaN if not one. */
    static double quantity(String q) {
        Matcher m = QUANTITY.matcher(q);
        if (!m.matches()) {
            return Double.NaN;
        }
        double v = Double.parseDouble(m.group(1));
        String s = m.group(2);
        if (s == null) {
            return v;
        }
        return switch (s) {
            case "m" -> v / 1000;
            case "k" -> v * 1e3;
            case "M" -> v * 1e6;
            case "G" -> v * 1e9;
            case "T" -> v * 1e12;
            case "P" -> v * 1e15;
            case "E" -> v * 1e18;
            default -> v * Math.pow(1024, "KMGTPE".indexOf(s.charAt(0)) + 1);
        };
    }
}
