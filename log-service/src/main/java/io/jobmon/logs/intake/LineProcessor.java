package io.jobmon.logs.intake;

import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.chunk.StreamKey;
import io.jobmon.logs.config.LogsConfig;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What happens to every line before it is stored: secrets masked, an oversize line cut with a marker. Keeps, per
 * stream, whether a private key block is open. Not thread-safe: the intake runs it on one thread.
 */
public final class LineProcessor {

    private final RecordParser parser;
    private final Masker masker;
    private final boolean masking;
    private final int maxLineBytes;
    private final Map<StreamKey, Masker.BlockState> blocks = new HashMap<>();
    /** Pod identities this thread has passed on to be stored (a bounded set: forgetting one only stores it again). */
    private final Set<PodIdentity> identitiesSeen = new HashSet<>();
    private PodIdentity lastIdentity;

    public LineProcessor(LogsConfig config) {
        LogsConfig.Intake in = config.intake();
        this.parser = new RecordParser(in.jobLabel(), Set.copyOf(in.systemUnits()), Pattern.compile(in.systemContainers()));
        this.masker = new Masker(MaskingRules.of(config.masking().rules()), config.masking().replacement());
        this.masking = config.masking().enabled();
        this.maxLineBytes = in.maxLineBytes();
    }

    /**
     * Whether the line's pod identity is one not passed on before (then it is remembered): nearly every line's is the
     * same instance as the line before's (a container's known metadata), answered without hashing.
     */
    public boolean newIdentity(PodIdentity id) {
        if (id == null || id == lastIdentity) {
            return false;
        }
        lastIdentity = id;
        if (identitiesSeen.contains(id)) {
            return false;
        }
        if (identitiesSeen.size() >= 100_000) {
            identitiesSeen.clear();
        }
        identitiesSeen.add(id);
        return true;
    }

    public RecordParser parser() {
        return parser;
    }

    /** A line as stored: its {@link StoredLine} flags and its UTF-8 text, {@code text[from, to)}. */
    public record Processed(int flags, byte[] text, int from, int to) {
    }

    /** The line as it is stored. */
    public Processed process(ShipperLine l) {
        int flags = l.stderr() ? StoredLine.STDERR : 0;
        // The common case: the record's own bytes, nothing to mask (no hint, no key block open), not too long.
        if (l.bytes() && l.to() - l.from() <= maxLineBytes
                && (!masking || blocks.isEmpty() && masker.clean(l.utf8(), l.from(), l.to()))) {
            return new Processed(flags, l.utf8(), l.from(), l.to());
        }
        String text = l.text();
        if (masking) {
            Masker.BlockState state = blocks.get(l.stream());
            if (state == null) {
                state = new Masker.BlockState();
            }
            String masked = masker.mask(text, state);
            if (state.linesInBlock >= 0) {
                blocks.put(l.stream(), state);
            } else if (blocks.size() > 0) {
                blocks.remove(l.stream());
            }
            if (masked != text) {
                flags |= StoredLine.MASKED;
                text = masked;
            }
        }
        String cut = LineCutter.cut(text, maxLineBytes);
        if (cut != text) {
            flags |= StoredLine.CUT;
            text = cut;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return new Processed(flags, utf8, 0, utf8.length);
    }
}
