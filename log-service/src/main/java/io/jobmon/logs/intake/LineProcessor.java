package io.jobmon.logs.intake;

import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.config.LogsConfig;
import java.util.HashMap;
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

    public LineProcessor(LogsConfig config) {
        LogsConfig.Intake in = config.intake();
        this.parser = new RecordParser(in.jobLabel(), Set.copyOf(in.systemUnits()), Pattern.compile(in.systemContainers()));
        this.masker = new Masker(MaskingRules.of(config.masking().rules()), config.masking().replacement());
        this.masking = config.masking().enabled();
        this.maxLineBytes = in.maxLineBytes();
    }

    public RecordParser parser() {
        return parser;
    }

    /** The line as stored, at its Kafka position. */
    public StoredLine process(ShipperLine l, long offset, int sub) {
        int flags = l.stderr() ? StoredLine.STDERR : 0;
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
        return new StoredLine(l.timeNanos(), offset, sub, flags, text);
    }
}
