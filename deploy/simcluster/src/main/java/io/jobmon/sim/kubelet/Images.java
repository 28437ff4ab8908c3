package io.jobmon.sim.kubelet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;

/** Image digests, sizes and container ids as containerd reports them, and Go's duration text. */
public final class Images {

    private Images() {
    }

    /** The image's digest reference ({@code imageID}, Fluent Bit's {@code container_hash}), fixed per image. */
    public static String imageId(String image) {
        String repo = image.contains("@") ? image.substring(0, image.indexOf('@'))
                : image.lastIndexOf(':') > image.lastIndexOf('/') ? image.substring(0, image.lastIndexOf(':')) : image;
        return repo + "@sha256:" + sha256(image);
    }

    /** A size between 6 and 22 GB, fixed per image (training images are big). */
    public static long size(String image) {
        return 6_000_000_000L + Math.floorMod(sha256(image).hashCode(), 16_000_000_000L);
    }

    /** A containerd container id: 64 hex characters. */
    public static String containerId(Random random) {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Go's time.Duration text, truncated to milliseconds: {@code 512ms}, {@code 24.512s}, {@code 1m5.2s}. */
    public static String goDuration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        long h = ms / 3_600_000;
        long m = (ms / 60_000) % 60;
        long s = (ms / 1000) % 60;
        long frac = ms % 1000;
        String seconds = s + (frac == 0 ? "" : "." + String.format(java.util.Locale.ROOT, "%03d", frac).replaceAll("0+$", "")) + "s";
        return (h > 0 ? h + "h" : "") + (h > 0 || m > 0 ? m + "m" : "") + seconds;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
