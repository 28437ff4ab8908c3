package io.jobmon.logs.intake;

import java.nio.charset.StandardCharsets;

/** Cuts a line longer than the configured size (UTF-8 bytes) and says so at its end: never dropped. */
public final class LineCutter {

    private LineCutter() {
    }

    /** @return the line, or its first bytes (whole characters) followed by {@code … [cut N bytes]} */
    public static String cut(String line, int maxBytes) {
        if (line.length() <= maxBytes / 3) {
            return line;
        }
        int bytes = 0;
        int i = 0;
        int n = line.length();
        int cutAt = -1;
        while (i < n) {
            char c = line.charAt(i);
            int len;
            int chars = 1;
            if (c < 0x80) {
                len = 1;
            } else if (c < 0x800) {
                len = 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(line.charAt(i + 1))) {
                len = 4;
                chars = 2;
            } else {
                len = 3;
            }
            if (cutAt < 0 && bytes + len > maxBytes) {
                cutAt = i;
            }
            bytes += len;
            i += chars;
        }
        if (cutAt < 0) {
            return line;
        }
        int kept = line.substring(0, cutAt).getBytes(StandardCharsets.UTF_8).length;
        return line.substring(0, cutAt) + " … [cut " + (bytes - kept) + " bytes]";
    }
}
