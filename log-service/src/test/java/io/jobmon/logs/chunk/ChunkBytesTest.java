package io.jobmon.logs.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.Zstd;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The chunk body format byte for byte (before zstd): bodies already stored must read back after any change of the code
 * that writes them. A change here is a change of the stored format.
 */
class ChunkBytesTest {

    static byte[] raw(byte[] body) {
        return Zstd.decompress(body, (int) Zstd.getFrameContentSize(body));
    }

    @Test
    void aSmallBodysRawBytesArePinned() {
        ChunkCodec.Encoded e = ChunkCodec.encode(ChunkCodecTest.lines(3), 3, 1024);
        assertEquals("0203016a03009e52b2e2d1c118e80300000000000000f68a7af68a7a000202010000010000151717737465702030206c"
                + "6f73733d322e3020c3bc6ec3af0a737465702031206c6f73733d312e39393920c3bc6ec3af0a737465702032206c6f73"
                + "733d312e39393820c3bc6ec3af0a",
                HexFormat.of().formatHex(raw(e.body())));
    }

    @Test
    void aBodyOfManySegmentsIsPinned() throws Exception {
        ChunkCodec.Encoded e = ChunkCodec.encode(ChunkCodecTest.lines(2000), 3, 1 << 12);
        assertEquals("a0798da800b8f4f3959375dd34c3a7a4619f08c6312acd53c105bf5251873ea1",
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw(e.body()))));
    }
}
