package io.jobmon.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GPU pools of the sim: {@code A800:4x8,H100:2x8} is four nodes with eight A800 each and two with eight H100
 * each. Nodes are named {@code gpu-<model>-<NN>} in order, numbered within their pool.
 */
public final class Pools {

    public static final String DEFAULT = "A800:4x8,H100:2x8";
    private static final Pattern POOL = Pattern.compile("([A-Za-z0-9]+):(\\d+)x(\\d+)");

    private Pools() {
    }

    /** @throws IllegalArgumentException with the part that does not parse */
    public static List<NodeSpec> parse(String spec) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (String part : spec.split(",")) {
            Matcher m = POOL.matcher(part.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("pool '" + part.trim() + "' is not MODEL:NODESxGPUS (e.g. A800:4x8)");
            }
            GpuModel model = GpuModel.of(m.group(1));
            int count = Integer.parseInt(m.group(2));
            int gpus = Integer.parseInt(m.group(3));
            if (count < 1 || gpus < 1 || gpus > 16) {
                throw new IllegalArgumentException("pool '" + part.trim() + "': 1+ nodes of 1 to 16 GPUs");
            }
            String pool = model.shortName().toLowerCase(Locale.ROOT);
            for (int i = 1; i <= count; i++) {
                nodes.add(new NodeSpec(String.format(java.util.Locale.ROOT, "gpu-%s-%02d", pool, i), pool, model, gpus));
            }
        }
        return nodes;
    }
}
