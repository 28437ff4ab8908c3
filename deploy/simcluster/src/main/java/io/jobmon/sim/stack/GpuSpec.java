package io.jobmon.sim.stack;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A bundle's {@code gpuSpec}, {@code 16*H800}: how many GPUs of which model (0 and empty when it names none). */
record GpuSpec(int count, String type) {

    private static final Pattern FORM = Pattern.compile("\\s*(\\d+)\\s*[*x×]\\s*([A-Za-z0-9._-]+)\\s*");

    static GpuSpec parse(String s) {
        Matcher m = FORM.matcher(s == null ? "" : s);
        return m.matches() ? new GpuSpec(Integer.parseInt(m.group(1)), m.group(2)) : new GpuSpec(0, "");
    }
}
