package io.jobmon.logs.intake;

/** One line as a shipper's record carried it, before masking: its stream, time, stdout/stderr and text. */
public record ShipperLine(StreamKey stream, long timeNanos, boolean stderr, String text) {
}
