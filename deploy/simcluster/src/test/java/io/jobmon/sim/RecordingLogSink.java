package io.jobmon.sim;

import io.jobmon.sim.logs.ContainerRef;
import io.jobmon.sim.logs.FluentBitRecords;
import io.jobmon.sim.logs.JournalRef;
import io.jobmon.sim.logs.LogSink;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps the lines the sim ships, as the Fluent Bit records it would send. */
public final class RecordingLogSink implements LogSink {

    /** A shipped line: the pod (null for journal lines), the line, the record. */
    public record Line(String pod, String container, String host, String identifier, String text, String record) {
    }

    private final List<Line> lines = new CopyOnWriteArrayList<>();

    @Override
    public void container(ContainerRef c, Instant time, String stream, String line) {
        lines.add(new Line(c.pod(), c.container(), c.host(), null, line, FluentBitRecords.container("sim", c, time, stream, line)));
    }

    @Override
    public void journal(JournalRef j, Instant time, String message) {
        lines.add(new Line(null, null, j.host(), j.identifier(), message, FluentBitRecords.journal("sim", j, time, message)));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    public List<String> textOf(String pod) {
        return lines.stream().filter(l -> pod.equals(l.pod())).map(Line::text).toList();
    }

    public List<String> journalOf(String host) {
        return lines.stream().filter(l -> l.pod() == null && host.equals(l.host())).map(Line::text).toList();
    }
}
