package io.jobmon.metrics.store.codec;

import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.ByteWriter;
import java.util.Arrays;

/** zstd (zstd-jni) around a block: the raw length as a varint, then one zstd frame. */
public final class Zstd {

    private Zstd() {
    }

    public static byte[] compress(ByteWriter raw, int level) {
        int bound = (int) com.github.luben.zstd.Zstd.compressBound(raw.size());
        ByteWriter out = new ByteWriter(bound + 10);
        out.varint(raw.size());
        int head = out.size();
        byte[] dst = new byte[head + bound];
        System.arraycopy(out.array(), 0, dst, 0, head);
        long n = com.github.luben.zstd.Zstd.compressByteArray(dst, head, bound, raw.array(), 0, raw.size(), level);
        if (com.github.luben.zstd.Zstd.isError(n)) {
            throw new IllegalStateException("zstd: " + com.github.luben.zstd.Zstd.getErrorName(n));
        }
        return Arrays.copyOf(dst, head + (int) n);
    }

    public static byte[] decompress(byte[] block) {
        ByteReader in = new ByteReader(block);
        long rawSize = in.varint();
        if (rawSize < 0 || rawSize > 256L * 1024 * 1024) {
            throw new IllegalStateException("implausible block size " + rawSize);
        }
        byte[] raw = new byte[(int) rawSize];
        long n = com.github.luben.zstd.Zstd.decompressByteArray(raw, 0, raw.length, block, in.position(),
                block.length - in.position());
        if (com.github.luben.zstd.Zstd.isError(n) || n != rawSize) {
            throw new IllegalStateException("corrupt zstd block");
        }
        return raw;
    }
}
