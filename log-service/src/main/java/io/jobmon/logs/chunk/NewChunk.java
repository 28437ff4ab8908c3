package io.jobmon.logs.chunk;


/**
 * A chunk about to be written: its stream, Kafka partition, level (0 flushed, 1 compacted), the encoded body and
 * filter, and the lines it was encoded from (a flush that finds some of them stored already re-encodes the rest).
 */
public record NewChunk(StreamKey stream, int partition, int level, ChunkCodec.Encoded encoded, ChunkLines lines) {
}
