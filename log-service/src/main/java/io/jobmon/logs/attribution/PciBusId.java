package io.jobmon.logs.attribution;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GPU's PCI address in one form, {@code 0000:cb:00.0} (domain of 4 hex digits, bus, device, function; lower case),
 * from the forms lines and exporters write: the NVIDIA kernel module's {@code PCI:0000:cb:00} (no function),
 * {@code 0000:cb:00.0} (lspci, the kernel's PCI core, mlx5), and dcgm-exporter's {@code 00000000:CB:00.0} (NVML's
 * 8-digit domain, upper case).
 */
public final class PciBusId {

    /** A bus id in a line: domain:bus:device with an optional .function; {@code PCI:} prefix allowed. */
    static final Pattern IN_TEXT = Pattern.compile(
            "(?<![0-9A-Fa-f:])(?:PCI:)?([0-9A-Fa-f]{4,8}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})(?:\\.([0-7]))?(?![0-9A-Fa-f:])");

    private PciBusId() {
    }

    /** The normal form of one bus id, or null when the text is none. */
    public static String normal(String id) {
        if (id == null) {
            return null;
        }
        Matcher m = IN_TEXT.matcher(id.trim());
        return m.matches() ? normal(m) : null;
    }

    static String normal(Matcher m) {
        long domain = Long.parseLong(m.group(1), 16);
        if (domain > 0xffff) {
            return null;
        }
        String function = m.group(4) == null ? "0" : m.group(4);
        return String.format(Locale.ROOT, "%04x:%s:%s.%s", domain, m.group(2).toLowerCase(Locale.ROOT),
                m.group(3).toLowerCase(Locale.ROOT), function);
    }
}
