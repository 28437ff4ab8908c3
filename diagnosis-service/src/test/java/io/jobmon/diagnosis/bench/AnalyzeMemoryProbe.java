package io.jobmon.diagnosis.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.diagnosis.engine.DiagnosisEngine;
import io.jobmon.diagnosis.engine.EngineJson;
import io.jobmon.diagnosis.engine.EvidenceBundle;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * How much heap one {@code /analyze} needs per byte of bundle: holds the body as the route does (the buffer and its
 * copy), parses it into a tree and a bundle, analyses, and reports the live heap at each step and the peak, relative
 * to the body's size. The factor sizes {@code jobmon.diagnosis.analyze.memory-factor}.
 *
 * <pre>java -Xmx2g -cp ... io.jobmon.diagnosis.bench.AnalyzeMemoryProbe 1.3    # scale of the base bundle (100k lines)</pre>
 */
public final class AnalyzeMemoryProbe {

    private AnalyzeMemoryProbe() {
    }

    public static void main(String[] args) {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.3;
        byte[] body = BundleJson.bytes(AnalyzeBenchmark.bundle(scale));
        DiagnosisEngine engine = new DiagnosisEngine();
        engine.analyze(EvidenceBundle.fromJson(EngineJson.readBundle(BundleJson.bytes(AnalyzeBenchmark.bundle(0.1)))));
        long base = live();
        byte[] copy = body.clone(); // the route copies the body buffer into a byte[]
        long held = live();
        JsonNode tree = EngineJson.readBundle(copy);
        long treeLive = live();
        EvidenceBundle bundle = EvidenceBundle.fromJson(tree);
        long bundleLive = live();
        resetPeaks();
        engine.analyzeBilingual(bundle);
        long peak = peak();
        double mb = body.length / 1e6;
        System.out.printf(Locale.ROOT, "body %.1f MB (%d log lines)%n", mb, bundle.logs().size());
        System.out.printf(Locale.ROOT, "live above base: body+copy %.1f MB, +tree %.1f MB, +bundle %.1f MB, peak in "
                + "analysis %.1f MB (old+young pools)%n", (held - base) / 1e6 + mb, (treeLive - base) / 1e6 + mb,
                (bundleLive - base) / 1e6 + mb, (peak - base) / 1e6 + mb);
        System.out.printf(Locale.ROOT, "factor (live with tree and bundle) %.1f, (peak) %.1f%n",
                ((bundleLive - base) / 1e6 + mb) / mb, ((peak - base) / 1e6 + mb) / mb);
        if (tree.size() < 0 || copy.length < 0) {
            System.out.println(); // keep tree and copy reachable until here
        }
    }

    private static long live() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void resetPeaks() {
        System.gc();
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static long peak() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
