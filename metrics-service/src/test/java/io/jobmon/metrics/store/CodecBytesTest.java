package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.metrics.store.codec.ChunkCodec;
import io.jobmon.metrics.store.codec.HeadCodec;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.jobmon.metrics.store.codec.Zstd;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stored block formats byte for byte (before zstd): blocks already in PostgreSQL must read back after any change
 * of the code that writes them. A change here is a change of the stored format.
 */
class CodecBytesTest {

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    static Points sample(int n, int shape) {
        Points p = new Points(n);
        for (int i = 0; i < n; i++) {
            p.add(1_748_772_000_000L + i * 15_000L + (i % 4) * 7, shape == 0 ? 90 + i % 7 : 0.1 * i - 3.25);
        }
        return p;
    }

    @Test
    void aChunksRawBytesArePinned() throws Exception {
        assertEquals("0a80c4f8aee565beea01000037380000373801b4010202020202020b0202",
                HexFormat.of().formatHex(Zstd.decompress(ChunkCodec.encode(sample(10, 0)))));
        assertEquals("200d71ba424d773302a66754a12fd5c55e7d9c728313cfe1678cda12168f462b",
                sha256(Zstd.decompress(ChunkCodec.encode(sample(300, 1)))));
    }

    @Test
    void headBlocksAndRollupsRawBytesArePinned() throws Exception {
        Map<Long, Points> block = new LinkedHashMap<>();
        block.put(3L, sample(8, 0));
        block.put(700L, sample(20, 1));
        assertEquals("f850e8a3203e62ef7457fdbe2dca8b29379e07ba1af5f084a38b5075abc4c2a1",
                sha256(Zstd.decompress(HeadCodec.encode(block))));
        assertEquals("0c805662dbeec4a763cbbb2f16a6410efdaad53f8eeab797c8c89aee6f09095a",
                sha256(Zstd.decompress(Rollups.of(sample(200, 1), 60_000, false, Double.NaN).encode())));
    }
}
