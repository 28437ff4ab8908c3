package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Byte ranges as keys: equal bytes anywhere are equal keys, and near-identical label blocks spread over a map's slots. */
class ByteKeyTest {

    @Test
    void equalBytesAtAnyOffsetAreEqualKeysAndTheirCopyToo() {
        byte[] a = "xxDCGM_FI_DEV_GPU_UTIL".getBytes(StandardCharsets.UTF_8);
        byte[] b = "DCGM_FI_DEV_GPU_UTILyy".getBytes(StandardCharsets.UTF_8);
        ByteKey x = new ByteKey(a, 2, 20);
        ByteKey y = new ByteKey(b, 0, 20);
        assertEquals(x, y);
        assertEquals(x.hashCode(), y.hashCode());
        assertEquals(x, y.copy());
        assertNotEquals(x, new ByteKey(b, 1, 20));
        assertNotEquals(x, new ByteKey(a, 2, 19));
    }

    @Test
    void labelBlocksThatDifferInOneByteFillTheLowBitsOfTheirHashes() {
        // 8 GPUs × 30 metrics × 100 nodes of one exporter: blocks alike but for the node number, GPU and metric
        Set<Integer> slots = new HashSet<>();
        int n = 0;
        for (int node = 0; node < 100; node++) {
            for (int gpu = 0; gpu < 8; gpu++) {
                for (int metric = 0; metric < 30; metric++) {
                    byte[] block = String.format("__name__DCGM_METRIC_%02d Hostname bench-node-%03d gpu %d UUID GPU-%08x-5d1e"
                            + " modelName NVIDIA A100-SXM4-80GB pod job-%03d-worker-%d", metric, node, gpu, node, node, gpu / 4)
                            .getBytes(StandardCharsets.UTF_8);
                    slots.add(new ByteKey(block, 0, block.length).hashCode() & (1 << 16) - 1);
                    n++;
                }
            }
        }
        // 24,000 keys in 65,536 slots: a uniform hash leaves ~20,300 distinct; a weak one a few thousand
        assertTrue(slots.size() > 19_000, slots.size() + " distinct slots of " + n);
    }
}
