package io.jobmon.diagnosis.engine;

import java.time.Instant;

/**
 * tqdm progress bars: {@code 45%|████▌     | 4500/10000 [1:02:11<1:15:59, 1.21it/s, loss=0.3]}
 * (also {@code s/it}, {@code examples/s}, and the total-less {@code 1234it [01:02, 19.8it/s]}),
 * scanned by hand because a third of a training log can be such lines.
 */
final class TqdmLine {

    private TqdmLine() {
    }

    /**
     * tqdm's {@code n/total [elapsed<remaining, rate unit, postfix]} or {@code n it [elapsed, rate unit]},
     * scanned by hand (no regex) because every third line of a training log is one.
     */
    static ProgressPoint parse(String s, Instant t, String pod, int index) {
        int from = 0;
        int br;
        while ((br = s.indexOf(" [", from)) > 0) {
            from = br + 2;
            int totalStart = digitsBefore(s, br);
            boolean hasTotal = totalStart < br && totalStart > 0 && s.charAt(totalStart - 1) == '/';
            int nEnd = hasTotal ? totalStart - 1 : (s.startsWith("it", br - 2) ? br - 2 : br);
            int nStart = digitsBefore(s, nEnd);
            int elapsedEnd = br + 2;
            while (elapsedEnd < s.length() && (isDigit(s.charAt(elapsedEnd)) || s.charAt(elapsedEnd) == ':')) {
                elapsedEnd++;
            }
            if (nStart == nEnd || (!hasTotal && nEnd == br) || s.indexOf(':', br + 2) < 0
                    || s.indexOf(':', br + 2) >= elapsedEnd || elapsedEnd - br - 2 < 4) {
                continue;
            }
            double rate = Double.NaN;
            String unit = null;
            int comma = s.indexOf(',', elapsedEnd);
            int close = s.indexOf(']', elapsedEnd);
            if (comma > 0 && (close < 0 || comma < close)) {
                int p = comma + 1;
                while (p < s.length() && s.charAt(p) == ' ') {
                    p++;
                }
                int numEnd = p;
                while (numEnd < s.length()
                        && (isDigit(s.charAt(numEnd)) || s.charAt(numEnd) == '.' || s.charAt(numEnd) == '?')) {
                    numEnd++;
                }
                int unitStart = numEnd < s.length() && s.charAt(numEnd) == ' ' ? numEnd + 1 : numEnd;
                int unitEnd = unitStart;
                while (unitEnd < s.length() && unitEnd - unitStart < 16 && s.charAt(unitEnd) != ','
                        && s.charAt(unitEnd) != ']' && s.charAt(unitEnd) != ' ') {
                    unitEnd++;
                }
                unit = s.substring(unitStart, unitEnd);
                if (!unit.endsWith("/s") && !unit.equals("s/it")) {
                    unit = null;
                } else if (numEnd > p) {
                    rate = ProgressParser.rate(s.substring(p, numEnd), unit);
                }
            }
            String label = ProgressParser.label(s.substring(0, nStart));
            String total = hasTotal ? s.substring(totalStart, br) : "?";
            double n = ProgressParser.num(s.substring(nStart, nEnd));
            double elapsed = ProgressParser.clock(s, br + 2, elapsedEnd);
            return ProgressParser.point(t, pod, "tqdm|" + label + "|" + total, n,
                    hasTotal ? ProgressParser.num(total) : Double.NaN, elapsed, Double.NaN, Double.NaN, rate,
                    ProgressParser.isTrainingBar(label, unit), false, index);
        }
        return null;
    }

    private static int digitsBefore(String s, int end) {
        int i = end;
        while (i > 0 && isDigit(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
